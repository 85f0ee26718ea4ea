/**
 * The subset of JSON Schema that decodex's structured answers use. Small on purpose: every
 * keyword here is checked; a schema using anything else is rejected rather than half-checked.
 */
export interface JsonSchema {
  type: 'object' | 'array' | 'string' | 'number' | 'integer' | 'boolean';
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  /** Only `false` is meaningful: extra properties are then a problem. */
  additionalProperties?: boolean;
  items?: JsonSchema;
  enum?: Array<string | number | boolean>;
  /** Bounds that keep a small model from looping: a local model's grammar enforces them while decoding. */
  maxItems?: number;
  maxLength?: number;
}

const KNOWN_KEYWORDS = new Set(['type', 'description', 'properties', 'required', 'additionalProperties', 'items', 'enum', 'maxItems', 'maxLength']);

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

function matchesType(value: unknown, type: JsonSchema['type']): boolean {
  switch (type) {
    case 'object':
      return typeOf(value) === 'object';
    case 'array':
      return Array.isArray(value);
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    default:
      return typeof value === type;
  }
}

/** Problems of `value` against `schema`, each prefixed by its JSON path; empty when valid. */
export function validateJson(value: unknown, schema: JsonSchema, path = '$'): string[] {
  for (const keyword of Object.keys(schema)) {
    // A keyword we do not check would let invalid answers through unnoticed.
    if (!KNOWN_KEYWORDS.has(keyword)) throw new Error(`JSON schema at ${path} uses unsupported keyword "${keyword}"`);
  }
  if (!matchesType(value, schema.type)) return [`${path}: expected ${schema.type}, got ${typeOf(value)}`];

  const problems: string[] = [];
  if (schema.enum && !schema.enum.includes(value as string | number | boolean)) {
    problems.push(`${path}: ${JSON.stringify(value)} is not one of ${schema.enum.map((e) => JSON.stringify(e)).join(', ')}`);
  }
  if (schema.type === 'object') {
    const obj = value as Record<string, unknown>;
    for (const name of schema.required ?? []) {
      if (!(name in obj)) problems.push(`${path}: missing required property "${name}"`);
    }
    for (const [name, child] of Object.entries(obj)) {
      const childSchema = schema.properties?.[name];
      if (childSchema) problems.push(...validateJson(child, childSchema, `${path}.${name}`));
      else if (schema.additionalProperties === false) problems.push(`${path}: unexpected property "${name}"`);
    }
  }
  if (schema.maxLength !== undefined && typeof value === 'string' && value.length > schema.maxLength) {
    problems.push(`${path}: longer than ${schema.maxLength} characters (${value.length})`);
  }
  if (schema.maxItems !== undefined && Array.isArray(value) && value.length > schema.maxItems) {
    problems.push(`${path}: more than ${schema.maxItems} items (${value.length})`);
  }
  if (schema.type === 'array' && schema.items) {
    const items = schema.items;
    (value as unknown[]).forEach((item, i) => problems.push(...validateJson(item, items, `${path}[${i}]`)));
  }
  return problems;
}
