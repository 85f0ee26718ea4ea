import type { JsonSchema } from '../../activities/llm/json-schema';
import { validateJson } from '../../activities/llm/json-schema';
import { parseStructured } from '../../activities/llm/structured-output';

const SQL_SCHEMA: JsonSchema = {
  type: 'object',
  properties: { sql: { type: 'string' }, confidence: { type: 'number' } },
  required: ['sql'],
  additionalProperties: false,
};

describe('validateJson', () => {
  const schema: JsonSchema = {
    type: 'object',
    required: ['route', 'steps'],
    properties: {
      route: { type: 'string', enum: ['direct', 'decompose'] },
      steps: { type: 'array', items: { type: 'object', required: ['id'], properties: { id: { type: 'integer' }, done: { type: 'boolean' } } } },
    },
  };

  it('accepts a valid value', () => {
    expect(validateJson({ route: 'direct', steps: [{ id: 1, done: true }], extra: 1 }, schema)).toEqual([]);
  });

  it('reports each problem with its path', () => {
    const problems = validateJson({ route: 'sideways', steps: [{ id: 1.5 }, { done: 'yes' }] }, schema);
    expect(problems).toEqual([
      '$.route: "sideways" is not one of "direct", "decompose"',
      '$.steps[0].id: expected integer, got number',
      '$.steps[1]: missing required property "id"',
      '$.steps[1].done: expected boolean, got string',
    ]);
  });

  it('distinguishes null, arrays and objects', () => {
    expect(validateJson(null, { type: 'object' })).toEqual(['$: expected object, got null']);
    expect(validateJson([], { type: 'object' })).toEqual(['$: expected object, got array']);
    expect(validateJson({}, { type: 'array' })).toEqual(['$: expected array, got object']);
  });

  it('rejects extra properties only when additionalProperties is false', () => {
    expect(validateJson({ sql: 'x', note: 1 }, SQL_SCHEMA)).toEqual(['$: unexpected property "note"']);
  });

  it('refuses schema keywords it does not check', () => {
    expect(() => validateJson('x', { type: 'string', minLength: 3 } as unknown as JsonSchema)).toThrow(/unsupported keyword "minLength"/);
  });
});

describe('parseStructured', () => {
  it('parses clean JSON', () => {
    expect(parseStructured('{"sql": "SELECT 1"}', SQL_SCHEMA)).toEqual({ ok: true, value: { sql: 'SELECT 1' } });
  });

  it('repairs code fences, surrounding prose and trailing commas', () => {
    const text = 'Sure! Here is the query:\n```json\n{"sql": "SELECT a, b FROM t", "confidence": 0.9,}\n```\nHope it helps {really}.';
    expect(parseStructured(text, SQL_SCHEMA)).toEqual({ ok: true, value: { sql: 'SELECT a, b FROM t', confidence: 0.9 } });
  });

  it('finds the JSON after a brace that is not JSON', () => {
    expect(parseStructured('Using {schema} I get: {"sql": "SELECT \\"}\\" FROM t"}', SQL_SCHEMA)).toEqual({
      ok: true,
      value: { sql: 'SELECT "}" FROM t' },
    });
  });

  it('keeps commas inside strings', () => {
    expect(parseStructured('{"sql": "SELECT a,} FROM t",}', SQL_SCHEMA)).toEqual({ ok: true, value: { sql: 'SELECT a,} FROM t' } });
  });

  it('parses arrays', () => {
    const schema: JsonSchema = { type: 'array', items: { type: 'string' } };
    expect(parseStructured('Tables: ["a", "b",]', schema)).toEqual({ ok: true, value: ['a', 'b'] });
  });

  it('never accepts JSON that fails the schema', () => {
    expect(parseStructured('{"query": "SELECT 1"}', SQL_SCHEMA)).toEqual({
      ok: false,
      problems: ['$: missing required property "sql"', '$: unexpected property "query"'],
    });
  });

  it('says when there is no JSON at all, or it was cut off', () => {
    const none = parseStructured('I cannot answer that.', SQL_SCHEMA);
    expect(none.ok).toBe(false);
    if (!none.ok) expect(none.problems[0]).toMatch(/not valid JSON \(expected a JSON object\)/);
    expect(parseStructured('{"sql": "SELECT', SQL_SCHEMA).ok).toBe(false);
  });
});
