import type { JsonSchema } from '../../activities/llm/json-schema';
import { grammarSchemaOf, LOCAL_AFTERWORD_CAP, LOCAL_STRING_CAP } from '../../activities/llm/local/json-schema-grammar';

const propertiesOf = (g: unknown) => (g as { properties: Record<string, unknown> }).properties;

describe('grammarSchemaOf', () => {
  it('maps nested objects, arrays and enums to node-llama-cpp grammar schemas', () => {
    const schema: JsonSchema = {
      type: 'object',
      description: 'a table',
      properties: {
        kind: { type: 'string', enum: ['fact', 'dimension'] },
        columns: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' }, rows: { type: 'integer' } }, required: ['name'] } },
        ok: { type: 'boolean' },
      },
      required: ['kind'],
      additionalProperties: false,
    };
    expect(grammarSchemaOf(schema)).toEqual({
      type: 'object',
      description: 'a table',
      additionalProperties: false,
      properties: {
        kind: { enum: ['fact', 'dimension'] },
        columns: {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: false,
            properties: { name: { type: 'string', maxLength: LOCAL_STRING_CAP }, rows: { type: 'integer' } },
          },
        },
        ok: { type: 'boolean' },
      },
    });
  });

  it('keeps an explanation written after the answer to about a sentence, and one written before it whole', () => {
    const after = propertiesOf(grammarSchemaOf({ type: 'object', properties: { sql: { type: 'string' }, reasoning: { type: 'string', maxLength: 400 } } }));
    expect(after.reasoning).toEqual({ type: 'string', maxLength: LOCAL_AFTERWORD_CAP });
    expect(after.sql).toEqual({ type: 'string', maxLength: LOCAL_STRING_CAP });
    const before = propertiesOf(
      grammarSchemaOf({ type: 'object', properties: { reasoning: { type: 'string', maxLength: 800 }, winner: { type: 'string', enum: ['A', 'B'] } } }),
    );
    expect(before.reasoning).toEqual({ type: 'string', maxLength: 800 });
  });

  it('bounds every string (a looping model still closes its JSON), keeping tighter bounds and array bounds', () => {
    expect(grammarSchemaOf({ type: 'string' })).toEqual({ type: 'string', maxLength: LOCAL_STRING_CAP });
    expect(grammarSchemaOf({ type: 'string', maxLength: 40 })).toEqual({ type: 'string', maxLength: 40 });
    expect(grammarSchemaOf({ type: 'string', maxLength: 5000 })).toEqual({ type: 'string', maxLength: LOCAL_STRING_CAP });
    expect(grammarSchemaOf({ type: 'array', items: { type: 'string', maxLength: 9 }, maxItems: 3 })).toEqual({
      type: 'array',
      items: { type: 'string', maxLength: 9 },
      maxItems: 3,
    });
  });

  it('lets an object that lists no properties hold any, and an array without items hold anything', () => {
    expect(grammarSchemaOf({ type: 'object' })).toEqual({ type: 'object', properties: {}, additionalProperties: true });
    expect(grammarSchemaOf({ type: 'array' })).toEqual({ type: 'array' });
  });
});
