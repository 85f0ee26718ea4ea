import type { Dialect } from '../../core/database/schema-types';

/**
 * Quotes a table or column name so any name works (Spider has names with spaces, keywords and
 * mixed case): SQLite "double quotes", MySQL `backticks`, the quote character doubled inside.
 */
export function quoteIdentifier(name: string, dialect: Dialect): string {
  const q = dialect === 'mysql' ? '`' : '"';
  return q + name.split(q).join(q + q) + q;
}
