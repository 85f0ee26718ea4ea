import type { GbnfJsonSchema } from 'node-llama-cpp';
import type { JsonSchema } from '../json-schema';

/**
 * decodex's JSON schema as node-llama-cpp's grammar schema, so decoding can only produce JSON of
 * the right shape. Two differences are bridged: the grammar writes every listed property (it has
 * no optional ones), which also satisfies `required`; and it allows no unlisted property unless
 * told to, so an object schema that lists none admits any properties, as JSON Schema does.
 * Validation still runs on the answer: the grammar shapes it, the validator vouches for it.
 *
 * The grammar writes properties in the schema's order. The SQL templates' schemas list `sql`
 * before `reasoning`: a small local model told to reason first rambles into its SQL, while one
 * that writes the query first answers as well as it can and explains after. API models get no
 * grammar and follow the prompt, which asks for the reasoning first as the papers' prompts do.
 */
/**
 * Every string a local model writes ends within this many characters, so a model caught in a
 * repetition loop (a 270M model repeats digits until its token limit) still closes its JSON.
 * llama.cpp refuses grammars that repeat a rule much more often (about 1,000 was accepted,
 * 1,200 was not); the longest BIRD dev gold query has 1,446 characters, 3 of 1,534 exceed 1,000.
 * Only the grammar is capped: validation applies the schema's own bounds.
 */
export const LOCAL_STRING_CAP = 1000;

/**
 * An explanation a local model writes after its answer (`reasoning` after `sql`, after a verdict)
 * cannot change that answer, and on a CPU every token of it costs a quarter of a second: about a
 * sentence is kept, enough for the trace. (An explanation the schema puts first, before the
 * answer, is the model's chain of thought and keeps its length.)
 */
export const LOCAL_AFTERWORD_CAP = 160;

export function grammarSchemaOf(schema: JsonSchema): GbnfJsonSchema {
  const described = schema.description === undefined ? {} : { description: schema.description };
  if (schema.enum) return { enum: schema.enum, ...described };
  switch (schema.type) {
    case 'object': {
      const properties: Record<string, GbnfJsonSchema> = {};
      for (const [i, [name, child]] of Object.entries(schema.properties ?? {}).entries()) {
        const afterword = i > 0 && name === 'reasoning' && child.type === 'string';
        properties[name] = grammarSchemaOf(afterword ? { ...child, maxLength: Math.min(child.maxLength ?? LOCAL_AFTERWORD_CAP, LOCAL_AFTERWORD_CAP) } : child);
      }
      return { type: 'object', properties, additionalProperties: Object.keys(properties).length === 0, ...described };
    }
    case 'array':
      return {
        type: 'array',
        ...(schema.items ? { items: grammarSchemaOf(schema.items) } : {}),
        ...(schema.maxItems !== undefined ? { maxItems: schema.maxItems } : {}),
        ...described,
      };
    case 'string':
      return { type: 'string', maxLength: Math.min(schema.maxLength ?? LOCAL_STRING_CAP, LOCAL_STRING_CAP), ...described };
    default:
      return { type: schema.type, ...described };
  }
}
