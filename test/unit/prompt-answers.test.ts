import { readFileSync } from 'node:fs';
import path from 'node:path';
import { answerTypesSource, type AnswerSchema } from '../../core/prompts/answer-types-source';
import { PROMPT_NAMES } from '../../core/prompts/prompt-catalog';

const root = path.resolve(__dirname, '../..');
const schemaOf = (name: string): AnswerSchema => JSON.parse(readFileSync(path.join(root, 'prompts', `${name}.schema.json`), 'utf8'));

describe("a prompt's text, its schema and the code reading its answer agree", () => {
  it('core/prompts/prompt-answers.ts is what the schemas say (run `npm run generate:prompt-answers` after changing one)', () => {
    const schemas = Object.fromEntries(PROMPT_NAMES.map((name) => [name, schemaOf(name)]));
    expect(readFileSync(path.join(root, 'core/prompts/prompt-answers.ts'), 'utf8')).toBe(answerTypesSource(schemas));
  });

  it("every field of a prompt's answer is named in its template, so the model is told what to write", () => {
    const unnamed = PROMPT_NAMES.flatMap((name) => {
      const template = readFileSync(path.join(root, 'prompts', `${name}.md`), 'utf8');
      return Object.keys(schemaOf(name).properties ?? {})
        .filter((field) => !template.includes(field))
        .map((field) => `${name}: ${field}`);
    });
    expect(unnamed).toEqual([]);
  });

  it('writes optional fields, enums and nested arrays, and refuses a schema type it cannot express', () => {
    const source = answerTypesSource({
      'x-prompt': {
        type: 'object',
        properties: {
          pick: { type: 'string', enum: ['A', 'B'] },
          pairs: { type: 'array', items: { type: 'array', items: { type: 'integer' } } },
          why: { type: 'string' },
        },
        required: ['pick', 'pairs'],
      },
    });
    expect(source).toContain("pick: 'A' | 'B';");
    expect(source).toContain('pairs: number[][];');
    expect(source).toContain('why?: string;');
    expect(() => answerTypesSource({ bad: { type: 'object', properties: { n: { type: 'null' } } } })).toThrow(/bad\.n: schema type "null"/);
  });
});
