/**
 * The `@[n]` placeholder of DecoSearch's decomposition (§3.5): a sub-question (and the SQL
 * written for it) names an upstream node's result by its id.
 */
const PLACEHOLDER = /@\[\s*(\d+)\s*\]/g;

/** The node ids a text refers to, each once, in order of first mention. */
export function placeholdersIn(text: string): number[] {
  const ids: number[] = [];
  for (const m of text.matchAll(PLACEHOLDER)) {
    const id = Number(m[1]);
    if (!ids.includes(id)) ids.push(id);
  }
  return ids;
}

/** The text with every `@[n]` replaced by what `replacement(n, context)` returns (context: the text just before it). */
export function replacePlaceholders(text: string, replacement: (id: number, before: string) => string): string {
  return text.replace(PLACEHOLDER, (_m, id: string, offset: number) => replacement(Number(id), text.slice(Math.max(0, offset - 16), offset)));
}
