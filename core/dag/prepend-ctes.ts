/**
 * Adds CTE definitions in front of a query, merging with its own WITH clause when it has one
 * (one WITH list per statement; RECURSIVE applies to the whole list in both engines).
 */
export function prependCtes(sql: string, defs: string[]): string {
  const body = sql.replace(/^(\s|--[^\n]*\n|\/\*[\s\S]*?\*\/)*/, '');
  const withRecursive = /^with\s+recursive\b/i.exec(body);
  if (withRecursive) return `WITH RECURSIVE ${defs.join(', ')}, ${body.slice(withRecursive[0].length).trimStart()}`;
  const withPlain = /^with\b/i.exec(body);
  if (withPlain) return `WITH ${defs.join(', ')}, ${body.slice(withPlain[0].length).trimStart()}`;
  return `WITH ${defs.join(', ')} ${body}`;
}
