/**
 * DexterSQL §3.1.4 Step 1 samples training questions by difficulty, estimating it from the gold
 * SQL's structure when the dataset has no labels (Spider's train file has none). The estimate
 * counts the structures the paper names (joins, nesting, aggregation, grouping, ordering, set
 * operations) on the SQL text with strings blanked out, so a keyword inside a literal never counts.
 */
export type EstimatedDifficulty = 'simple' | 'moderate' | 'challenging';

export function estimateSqlDifficulty(sql: string): EstimatedDifficulty {
  const text = ` ${sql.replace(/'(?:[^']|'')*'|"(?:[^"]|"")*"/g, "''").toLowerCase()} `;
  const count = (re: RegExp) => (text.match(re) ?? []).length;
  const joins = count(/\bjoin\b/g);
  const nesting = Math.max(0, count(/\bselect\b/g) - 1);
  const setOps = count(/\b(?:union|intersect|except)\b/g);
  const aggregates = count(/\b(?:count|sum|avg|min|max)\s*\(/g);
  const grouping = count(/\bgroup\s+by\b/g) + count(/\bhaving\b/g);
  const ordering = count(/\border\s+by\b/g) + count(/\blimit\b/g);
  const score = joins + 2 * nesting + 2 * setOps + (aggregates > 0 ? 1 : 0) + grouping + (ordering > 0 ? 1 : 0);
  if (score <= 1) return 'simple';
  if (score <= 3) return 'moderate';
  return 'challenging';
}
