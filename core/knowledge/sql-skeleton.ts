/**
 * An SQL query's skeleton: its structure with the values taken out (string literals become
 * 'VALUE', numbers NUMBER, whitespace collapsed), so a few-shot example shows how a kind of question
 * maps to SQL without suggesting another database's literals.
 */
export function sqlSkeleton(sql: string): string {
  return sql
    .replace(/'(?:[^']|'')*'/g, "'VALUE'")
    .replace(/"(?:[^"]|"")*"(?=\s*(?:$|[),;]|\b(?:and|or|then|else|end|group|order|limit)\b))/gi, "'VALUE'")
    .replace(/(?<![\w.])-?\d+(?:\.\d+)?(?![\w.])/g, 'NUMBER')
    .replace(/\s+/g, ' ')
    .trim();
}
