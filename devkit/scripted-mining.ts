import type { ScriptPrompt, ScriptRule } from './scripted-llm/server';

/**
 * A scripted rule creator (tests and demos only, never the product): it answers the five mining
 * templates from what the prompt shows, like a careful model would, with fixed wording per kind
 * of failure so that clustering and rule synthesis are checkable:
 * - explain: compares the gold and generated SQL in the prompt (a dropped CAST ... AS REAL is
 *   integer division, a dropped DESC is a reversed order, anything else a wrong column);
 * - isolate: a wrong column is database-specific, the rest agnostic;
 * - cluster / merge: by the kind of failure named in each explanation or group label;
 * - synthesize: the canonical rule of that kind.
 */
export const FAILURE_KINDS = {
  integerDivision: {
    explanation: 'The ratio divides two integer aggregates without a floating-point conversion, so integer division truncates the result.',
    label: 'integer division truncates a ratio',
    rule: {
      gist: 'A ratio of integer counts or aggregates is divided without a floating-point conversion and is truncated.',
      bad_pattern: 'SUM(cond_a) / SUM(cond_b)',
      correct_pattern: 'CAST(SUM(cond_a) AS REAL) / SUM(cond_b)',
      fix: 'When a query divides integer-valued expressions to compute a ratio, CAST one operand AS REAL before the division.',
    },
  },
  reversedOrder: {
    explanation: 'The query sorts in ascending order although the question asks for the largest first; ORDER BY needs DESC.',
    label: 'superlative sorted in the wrong direction',
    rule: {
      gist: 'A "most" / "largest" superlative is sorted ascending, so LIMIT keeps the smallest.',
      bad_pattern: 'ORDER BY x LIMIT n (for a largest-first question)',
      correct_pattern: 'ORDER BY x DESC LIMIT n',
      fix: 'For largest / most / highest, sort descending before LIMIT.',
    },
  },
  wrongColumn: {
    explanation: 'The query reads a column of this database that does not hold what the question asks for (a schema-linking mistake).',
    label: 'wrong column for this schema',
    rule: { gist: 'wrong column', bad_pattern: 'column a', correct_pattern: 'column b', fix: 'use the right column' },
  },
} as const;

type Kind = keyof typeof FAILURE_KINDS;
const KINDS = Object.keys(FAILURE_KINDS) as Kind[];

const has = (p: ScriptPrompt, text: string) => p.system.includes(text);
const json = (value: unknown) => JSON.stringify(value);

function kindOfPair(gold: string, candidate: string): Kind {
  if (/CAST\s*\(/i.test(gold) && !/CAST\s*\(/i.test(candidate) && candidate.includes('/')) return 'integerDivision';
  if (/\bDESC\b/i.test(gold) && !/\bDESC\b/i.test(candidate)) return 'reversedOrder';
  return 'wrongColumn';
}

/** The kind a text (an explanation, a group label) speaks of. */
function kindOfText(text: string): Kind {
  return KINDS.find((k) => text.includes(FAILURE_KINDS[k].explanation) || text.includes(FAILURE_KINDS[k].label)) ?? 'wrongColumn';
}

export const scriptedMiningRules: ScriptRule[] = [
  {
    name: 'rule_creator',
    when: (p) => has(p, 'You explain why a generated SQL query gives a different result'),
    reply: (p) => {
      const gold = /Gold SQL \([^)]*\):\n([\s\S]*?)\nGold result/.exec(p.user)![1];
      const candidate = /Generated SQL:\n([\s\S]*?)\nGenerated result/.exec(p.user)![1];
      return json({ explanations: [FAILURE_KINDS[kindOfPair(gold, candidate)].explanation] });
    },
  },
  {
    name: 'rule_creator',
    when: (p) => has(p, 'You sort explanations of text-to-SQL failures'),
    reply: (p) => {
      const specific = kindOfText(p.user) === 'wrongColumn';
      return json({ database_agnostic: !specific, reason: specific ? 'schema linking' : 'SQL formulation' });
    },
  },
  {
    name: 'rule_creator',
    when: (p) => has(p, 'You group explanations of SQL generation failures'),
    reply: (p) => {
      const byKind = new Map<Kind, string[]>();
      for (const m of p.user.matchAll(/^\[([^\]]+)\] (.*)$/gm)) byKind.set(kindOfText(m[2]), [...(byKind.get(kindOfText(m[2])) ?? []), m[1]]);
      return json({ groups: [...byKind.entries()].map(([kind, members]) => ({ label: FAILURE_KINDS[kind].label, members })) });
    },
  },
  {
    name: 'rule_creator',
    when: (p) => has(p, 'You merge groups of SQL generation failures'),
    reply: (p) => {
      const byKind = new Map<Kind, string[]>();
      for (const m of p.user.matchAll(/^\[([^\]]+)\] \d+ \| ([^|]*) \|/gm)) byKind.set(kindOfText(m[2]), [...(byKind.get(kindOfText(m[2])) ?? []), m[1]]);
      return json({ merged: [...byKind.entries()].map(([kind, groups]) => ({ label: FAILURE_KINDS[kind].label, groups })) });
    },
  },
  {
    name: 'rule_creator',
    when: (p) => has(p, 'You turn a recurring SQL generation failure into one correction rule'),
    reply: (p) => json(FAILURE_KINDS[kindOfText(/^Failure group: (.*)$/m.exec(p.user)![1])].rule),
  },
];
