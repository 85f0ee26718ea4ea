import type { ScriptPrompt, ScriptRule } from './scripted-llm/server';

/**
 * A scripted stand-in for every role of the online pipeline (tests only, never the product):
 * each rule recognises its template by the system prompt's wording and answers in the template's
 * JSON shape, with SQL taken from the test's table of answers. What a test wants to vary (a path
 * that writes wrong SQL, a judge that prefers B, a complex verdict) is an option.
 */

/**
 * The question in a rendered prompt: its first `Question: ...` line (the shared question context
 * comes first; few-shot examples, with questions of their own, come after it).
 */
export function questionIn(user: string): string {
  return /^Question: (.*)$/m.exec(user)?.[1].trim() ?? '';
}

export type PathName = 'direct' | 'dependency-tree' | 'few-shot' | 'divide-and-conquer';

/** Which generation template a generator prompt came from. */
export function pathOf(system: string): PathName {
  if (system.includes('intermediate')) return 'dependency-tree';
  if (system.includes('solved examples')) return 'few-shot';
  if (system.includes('divide and conquer')) return 'divide-and-conquer';
  return 'direct';
}

export interface ScriptedPipelineOptions {
  /** SQL a path writes instead of the question's answer (keyed by path). */
  pathSql?: (question: string, path: PathName) => string | undefined;
  /** SQL the reviser answers (default: the question's answer). */
  revisedSql?: (question: string, attempts: number) => string | undefined;
  /** The judger's verdict (default: direct). */
  complex?: (question: string) => boolean;
  /** The tournament judge's pick (default: the candidate with more support, A on ties). */
  prefer?: (question: string, sqlA: string, sqlB: string) => 'A' | 'B';
  /** Rule ids the rule selector picks (default: none) and the SQL the rule rewrite answers. */
  rules?: { select: (question: string) => string[]; rewrite: (question: string, sql: string) => string };
}

const has = (p: ScriptPrompt, text: string) => p.system.includes(text);
const json = (value: unknown) => JSON.stringify(value);

/** Tables an SQL answer reads (FROM / JOIN names), for the scripted table selector. */
function tablesOf(sql: string): string[] {
  return [...sql.matchAll(/\b(?:from|join)\s+["`]?(\w+)/gi)].map((m) => m[1]);
}

/** `table.column` of every `table(column, ...)` line of a schema outline in a prompt. */
function columnsIn(outline: string): string[] {
  return [...outline.matchAll(/^"?(\w+)"?\(([^)]*)\)/gm)].flatMap((m) => m[2].split(',').map((c) => `${m[1]}.${c.trim().replace(/^"|"$/g, '')}`));
}

export function scriptedPipeline(sqlByQuestion: Map<string, string>, options: ScriptedPipelineOptions = {}): ScriptRule[] {
  const known = (p: ScriptPrompt) => sqlByQuestion.has(questionIn(p.user));
  const answer = (p: ScriptPrompt) => sqlByQuestion.get(questionIn(p.user))!;
  return [
    {
      name: 'linker',
      when: (p) => has(p, 'helping to find which tables and columns') && known(p),
      reply: (p) => json({ reasoning: 'scripted draft', sql: answer(p) }),
    },
    {
      name: 'selector',
      when: (p) => has(p, 'List what a schema search needs') && known(p),
      reply: (p) =>
        json({
          keywords: questionIn(p.user)
            .split(/\W+/)
            .filter((w) => w.length > 3),
        }),
    },
    {
      name: 'selector',
      when: (p) => has(p, 'You choose the tables') && known(p),
      reply: (p) => json({ reasoning: 'scripted', tables: tablesOf(answer(p)).map((t) => t.toUpperCase()) }),
    },
    {
      name: 'selector',
      when: (p) => has(p, 'You choose the columns') && known(p),
      reply: (p) => json({ reasoning: 'scripted', columns: columnsIn(p.user) }),
    },
    {
      name: 'note_selector',
      when: (p) => has(p, 'Decide which notes matter'),
      reply: (p) => json({ relevant: [...p.user.matchAll(/^\[([^\]]+)\]/gm)].map((m) => m[1]) }),
    },
    {
      name: 'judger',
      when: (p) => has(p, 'decomposing it into sub-questions') && known(p),
      reply: (p) => json({ needs_decomposition: options.complex?.(questionIn(p.user)) ?? false, reasoning: 'scripted verdict' }),
    },
    {
      name: 'reviser',
      when: (p) => has(p, 'SQL debugger') && known(p),
      reply: (p) => {
        const attempts = Number(/Attempts so far \((\d+)\)/.exec(p.user)?.[1] ?? 1);
        return json({ reasoning: 'scripted revision', sql: options.revisedSql?.(questionIn(p.user), attempts) ?? answer(p) });
      },
    },
    {
      name: 'rule_corrector',
      when: (p) => has(p, 'against a list of correction rules') && known(p),
      reply: (p) => json({ rules: options.rules?.select(questionIn(p.user)) ?? [], reasoning: 'scripted' }),
    },
    {
      name: 'rule_corrector',
      when: (p) => has(p, 'by applying correction rules') && known(p),
      reply: (p) =>
        json({ reasoning: 'scripted rewrite', sql: options.rules!.rewrite(questionIn(p.user), /Query:\n([\s\S]*?)\n\nRules to apply/.exec(p.user)![1]) }),
    },
    {
      name: 'selection_judge',
      when: (p) => has(p, 'You judge which of two SQL queries') && known(p),
      reply: (p) => {
        const sqlA = /Candidate A \(support [\d.]+\):\n([\s\S]*?)\nResult preview/.exec(p.user)![1];
        const sqlB = /Candidate B \(support [\d.]+\):\n([\s\S]*?)\nResult preview/.exec(p.user)![1];
        const supportA = Number(/Candidate A \(support ([\d.]+)\)/.exec(p.user)![1]);
        const supportB = Number(/Candidate B \(support ([\d.]+)\)/.exec(p.user)![1]);
        const winner = options.prefer?.(questionIn(p.user), sqlA, sqlB) ?? (supportB > supportA ? 'B' : 'A');
        return json({ reasoning: 'scripted judgement', winner });
      },
    },
    {
      name: 'generator',
      when: (p) => has(p, 'SQL writer') && known(p),
      reply: (p) => json({ reasoning: 'scripted', sql: options.pathSql?.(questionIn(p.user), pathOf(p.system)) ?? answer(p) }),
    },
  ];
}
