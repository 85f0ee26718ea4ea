import { quoteIdentifier } from './sql-identifiers';

/**
 * Settings every decodex session starts with (the startup packet's `options`, so they are the
 * session's defaults and DISCARD ALL returns to them):
 * - default_transaction_read_only: a transaction decodex forgot to begin READ ONLY still is;
 * - standard_conforming_strings on: the statement guard scans '...' without backslash escapes;
 * - DateStyle ISO and TimeZone UTC: dates and times come back as the same text everywhere;
 * - idle_in_transaction_session_timeout: a worker that dies mid-transaction leaves nothing open;
 * - statement_timeout: a backstop for anything run outside decodex's own transactions.
 */
export function postgresStartupOptions(backstopMs: number): string {
  const settings: Record<string, string> = {
    default_transaction_read_only: 'on',
    standard_conforming_strings: 'on',
    DateStyle: 'ISO',
    TimeZone: 'UTC',
    idle_in_transaction_session_timeout: String(backstopMs),
    statement_timeout: String(backstopMs),
    application_name: 'decodex',
  };
  return Object.entries(settings)
    .map(([k, v]) => `-c ${k}=${v}`)
    .join(' ');
}

export interface TransactionSettings {
  timeoutMs: number;
  searchPath: string[];
  /** temp_file_limit in kB, or null when the account may not set it. */
  tempFileLimitKb: number | null;
}

/**
 * One round trip that opens a read-only transaction with its own limits (SET LOCAL: they end
 * with it): the statement timeout, the search_path that makes bare table names resolve, and the
 * temp file limit where the account may set it. Every value is a number or a quoted name.
 */
export function beginTransactionSql(settings: TransactionSettings): string {
  const statements = ['BEGIN TRANSACTION READ ONLY', `SET LOCAL statement_timeout = ${statementTimeout(settings.timeoutMs)}`];
  if (settings.searchPath.length) statements.push(`SET LOCAL search_path TO ${settings.searchPath.map((s) => quoteIdentifier(s, 'postgres')).join(', ')}`);
  if (settings.tempFileLimitKb !== null) statements.push(`SET LOCAL temp_file_limit = ${Math.max(1, Math.floor(settings.tempFileLimitKb))}`);
  return statements.join('; ');
}

/** statement_timeout in whole ms, never 0 (which would mean no limit at all). */
export function statementTimeout(ms: number): number {
  return Math.max(1, Math.ceil(ms));
}
