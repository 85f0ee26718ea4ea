import { loadPrompt, renderPrompt } from '../../activities/prompts/render-prompt';
import { PROMPT_NAMES } from '../../core/prompts/prompt-catalog';

const vars = {
  dialect: 'SQLite',
  schema: 'CREATE TABLE singer (singer_id INTEGER, name TEXT);',
  knowledge: 'Values matched in the database:\n- singer.name: Joe\n\n',
  evidence: '(none)',
  question: 'How many singers are on file?',
};

/** Values for the variables a template names beyond the question's own. */
function varsFor(name: (typeof PROMPT_NAMES)[number]): Record<string, string> {
  const t = loadPrompt(name);
  const names = [...`${t.system}\n${t.user}`.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]);
  return { ...Object.fromEntries(names.map((n) => [n, `<${n}>`])), ...vars };
}

describe('prompts about the question begin with the same text', () => {
  const questionPrompts = PROMPT_NAMES.filter((n) => loadPrompt(n).context === 'question');

  it('covers the generators, the judger, note selection, revision, selection and decomposition', () => {
    expect(questionPrompts).toEqual(
      expect.arrayContaining([
        'generate-sql',
        'generate-sql-few-shot',
        'generate-sql-divide-and-conquer',
        'generate-sql-dependency-tree',
        'judge-complexity',
        'select-notes',
        'revise-sql',
        'compare-candidates',
        'decompose-question',
      ]),
    );
  });

  it('renders the schema, knowledge, hint and question once, first, identical for every role; the role instructions after', () => {
    const rendered = questionPrompts.map((n) => renderPrompt(n, varsFor(n)));
    const systems = new Set(rendered.map((r) => r.messages[0].content));
    expect(systems.size).toBe(1);
    const [system] = systems;
    expect(system).toContain(vars.schema);
    expect(system).toContain('- singer.name: Joe');
    expect(system).toContain(`Question: ${vars.question}`);
    for (const r of rendered) {
      expect(r.messages.map((m) => m.role)).toEqual(['system', 'user']);
      // Nothing of the shared part again in the per-call part.
      expect(r.messages[1].content).not.toContain(vars.schema);
      expect(r.messages[1].content).toMatch(/JSON/);
    }
  });

  it('leaves other prompts as they were: their own instructions as the system message', () => {
    const other = PROMPT_NAMES.find((n) => n === 'select-tables')!;
    const rendered = renderPrompt(other, varsFor(other));
    expect(rendered.messages[0].content).toBe(loadPrompt(other).system.replace('{{dialect}}', 'SQLite'));
  });
});
