import { validateJson, type JsonSchema } from './json-schema';

export type StructuredResult<T = unknown> = { ok: true; value: T } | { ok: false; problems: string[] };

const FENCE = /```[a-zA-Z]*\s*\n?([\s\S]*?)```/;
// Several "{" can appear in prose before the real answer; trying each is cheap, but bounded.
const MAX_START_POSITIONS = 20;

/** Index just past the bracket that closes the one at `start`, or -1 (truncated answer). */
function closingIndex(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

/** Removes commas directly before `}` or `]` (outside strings), a common model slip. */
function withoutTrailingCommas(json: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < json.length; i++) {
    const c = json[i];
    if (inString) {
      out += c;
      if (c === '\\') out += json[++i] ?? '';
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    if (c === ',' && /^\s*[}\]]/.test(json.slice(i + 1))) continue;
    out += c;
  }
  return out;
}

/** Texts that may hold the answer, most literal first: the whole text, a fenced block, embedded JSON values. */
function candidates(text: string, schema: JsonSchema): string[] {
  const found = [text.trim()];
  const fenced = FENCE.exec(text);
  if (fenced) found.push(fenced[1].trim());
  const opener = schema.type === 'array' ? '[' : schema.type === 'object' ? '{' : null;
  if (opener) {
    let from = 0;
    for (let n = 0; n < MAX_START_POSITIONS; n++) {
      const start = text.indexOf(opener, from);
      if (start < 0) break;
      const end = closingIndex(text, start);
      if (end > 0) found.push(text.slice(start, end));
      from = start + 1;
    }
  }
  return [...new Set(found)];
}

function tryParse(candidate: string): { parsed: true; value: unknown } | { parsed: false } {
  for (const attempt of [candidate, withoutTrailingCommas(candidate)]) {
    try {
      return { parsed: true, value: JSON.parse(attempt) };
    } catch {
      // Not JSON in this form; the next repair (or candidate) may be.
    }
  }
  return { parsed: false };
}

/**
 * Reads a model's structured answer: repairs code fences, prose around the JSON and trailing
 * commas, then validates against the schema. Never returns an invalid value: when no repair
 * yields a valid one, the problems say why (for the re-ask message and the trace).
 */
export function parseStructured<T = unknown>(text: string, schema: JsonSchema): StructuredResult<T> {
  let firstProblems: string[] | undefined;
  for (const candidate of candidates(text, schema)) {
    const parsed = tryParse(candidate);
    if (!parsed.parsed) continue;
    const problems = validateJson(parsed.value, schema);
    if (problems.length === 0) return { ok: true, value: parsed.value as T };
    firstProblems ??= problems;
  }
  if (firstProblems) return { ok: false, problems: firstProblems };
  const preview = text.length > 120 ? `${text.slice(0, 120)}...` : text;
  return { ok: false, problems: [`the answer is not valid JSON (expected a JSON ${schema.type}): ${JSON.stringify(preview)}`] };
}
