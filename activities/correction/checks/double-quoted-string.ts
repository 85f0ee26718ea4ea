import type { Finding } from '../../../core/correction/finding';
import type { CheckInput } from './check-input';

/**
 * SQLite reads a double-quoted name that is no column as a string literal, silently: `WHERE
 * "Name" = 'x'` with a misspelled column compares two strings. Double-quoted tokens that are
 * neither a column nor a table are reported (they are intended as strings only when a filter
 * value is meant: the revision then uses single quotes, which every engine reads the same way).
 */
export function doubleQuotedString(input: CheckInput): Finding | null {
  if (input.schema.dialect !== 'sqlite') return null;
  const names = new Set(input.schema.tables.flatMap((t) => [t.name, ...t.columns.map((c) => c.name)]).map((n) => n.toLowerCase()));
  const quoted = [...input.sql.replace(/'(?:[^']|'')*'/g, "''").matchAll(/"((?:[^"]|"")*)"/g)].map((m) => m[1].replace(/""/g, '"'));
  const strings = [...new Set(quoted.filter((q) => !names.has(q.toLowerCase())))];
  if (!strings.length) return null;
  return {
    check: 'double-quoted-string',
    severity: 'warning',
    message: `${strings.map((s) => `"${s}"`).join(', ')} ${strings.length > 1 ? 'are' : 'is'} not a column or table, so SQLite reads ${strings.length > 1 ? 'them' : 'it'} as a string; write string values in single quotes and check the column name`,
  };
}
