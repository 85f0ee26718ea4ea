import { loadPrompt, renderPrompt } from '../../activities/prompts/render-prompt';
import { PROMPT_NAMES } from '../../core/prompts/prompt-catalog';
import { hintRules } from '../../activities/prompts/question-context';

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

describe('prompts about the question share one rendering of it', () => {
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

  it('renders the role instructions as the system message, then the same schema, knowledge, hint and question opening every user message', () => {
    const rendered = questionPrompts.map((n) => renderPrompt(n, varsFor(n)));
    const opening = `Database schema:\n${vars.schema}\n\n${vars.knowledge}Hint: ${vars.evidence}\n\nQuestion: ${vars.question}`;
    for (const [i, r] of rendered.entries()) {
      expect(r.messages.map((m) => m.role)).toEqual(['system', 'user']);
      expect(r.messages[0].content).toMatch(/JSON/);
      expect(r.messages[0].content).not.toContain(vars.schema);
      expect(r.messages[1].content.startsWith(opening)).toBe(true);
      // The shared part once: what follows it is the call's own data.
      expect(r.messages[1].content.indexOf(vars.schema, 1)).toBe(r.messages[1].content.indexOf(vars.schema));
      expect(r.messages[0].content).toBe(
        loadPrompt(questionPrompts[i])
          .system.replace(/\{\{dialect\}\}/g, 'SQLite')
          .replace(/\{\{examples\}\}/g, '<examples>')
          .replace(/\{\{hintRules\}\}/g, '<hintRules>'),
      );
    }
  });

  it('leaves other prompts as they were: their own instructions as the system message', () => {
    const other = PROMPT_NAMES.find((n) => n === 'select-tables')!;
    const rendered = renderPrompt(other, varsFor(other));
    expect(rendered.messages[0].content).toBe(loadPrompt(other).system.replace('{{dialect}}', 'SQLite'));
  });

  it('gives the rules for reading a hint only to a question that has one', () => {
    expect(hintRules(undefined)).toBe('');
    expect(hintRules('  ')).toBe('');
    const withHint = renderPrompt('generate-sql', { ...vars, evidence: 'rich refers to salary > 100', hintRules: hintRules('rich refers to salary > 100') });
    expect(withHint.messages[0].content).toMatch(/return names rather than ids/);
    const without = renderPrompt('generate-sql', { ...vars, hintRules: hintRules(undefined) });
    expect(without.messages[0].content).not.toMatch(/names rather than ids|LIKE|hint/i);
  });
});
