import type { GbnfJsonSchema } from 'node-llama-cpp';
import type { JsonSchema } from '../json-schema';

/**
 * decodex's JSON schema as node-llama-cpp's grammar schema, so decoding can only produce JSON of
 * the right shape. Two differences are bridged: the grammar writes every listed property (it has
 * no optional ones), which also satisfies `required`; and it allows no unlisted property unless
 * told to, so an object schema that lists none admits any properties, as JSON Schema does.
 * Validation still runs on the answer: the grammar shapes it, the validator vouches for it.
 */
export function grammarSchemaOf(schema: JsonSchema): GbnfJsonSchema {
  const described = schema.description === undefined ? {} : { description: schema.description };
  if (schema.enum) return { enum: schema.enum, ...described };
  switch (schema.type) {
    case 'object': {
      const properties: Record<string, GbnfJsonSchema> = {};
      for (const [name, child] of Object.entries(schema.properties ?? {})) properties[name] = grammarSchemaOf(child);
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
      return { type: 'string', ...(schema.maxLength !== undefined ? { maxLength: schema.maxLength } : {}), ...described };
    default:
      return { type: schema.type, ...described };
  }
}
