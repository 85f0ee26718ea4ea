import type { Finding } from '../../../core/correction/finding';
import type { CheckInput } from './check-input';

/**
 * The SQL analyzer cannot parse the query. The database, not the parser, is the final judge of
 * valid SQL: a query that runs is not reported for the parser's sake, but when it fails too,
 * the parser's position says where the syntax breaks, which the engine's message often does not.
 */
export function parseError(input: CheckInput): Finding | null {
  if (input.analysis.ok || input.execution.ok) return null;
  const { message, line, column } = input.analysis.error;
  return { check: 'parse-error', severity: 'error', message: `${message}${line ? ` (line ${line}, column ${column})` : ''}` };
}
