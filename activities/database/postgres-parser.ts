import { loadModule, parseSync } from 'libpg-query';
import { ReadOnlyViolation } from './target-database';

/** One statement of a parse tree: `{ SelectStmt: {...} }`, `{ DeleteStmt: {...} }`, ... */
export type RawStatement = Record<string, unknown>;

/**
 * A statement PostgreSQL's parser rejects. It is never sent: the server would reject it with the
 * same message, and a generated query that fails should fail as a SQL error the model can fix
 * (executeSql's `sql_error`), not as a read-only violation.
 */
export class PostgresSyntaxError extends Error {
  constructor(
    message: string,
    /** 1-based character position the parser stopped at, as the server's `position`. */
    readonly position: number | undefined,
  ) {
    super(message);
    this.name = 'PostgresSyntaxError';
  }
}

let loading: Promise<void> | null = null;

/**
 * The statements of `sql` as PostgreSQL's own grammar reads them (libpg-query: the parser of
 * PostgreSQL 17 compiled to WebAssembly, loaded once per process). The parser runs no code and
 * looks up no name: it tells statements, strings, comments and identifiers apart exactly as the
 * server does, `--` comments ended by `\r` included.
 */
export async function parsePostgres(sql: string): Promise<RawStatement[]> {
  // A module that failed to load is tried again by the next statement, not cached as a failure.
  await (loading ??= loadModule().catch((err: unknown) => {
    loading = null;
    throw err;
  }));
  let tree: { stmts?: { stmt: RawStatement }[] };
  try {
    tree = parseSync(sql);
  } catch (err) {
    // Deep nesting exhausts the WebAssembly stack; the server would refuse it too (max_stack_depth).
    if (err instanceof RangeError) throw new ReadOnlyViolation(`rejected SQL nested too deeply to check: ${err.message}`);
    const details = (err as { sqlDetails?: { message?: string; cursorPosition?: number } }).sqlDetails;
    if (details) throw new PostgresSyntaxError(details.message ?? (err as Error).message, positionOf(details.cursorPosition));
    throw err;
  }
  return (tree.stmts ?? []).map((s) => s.stmt);
}

/** libpg-query reports a 0-based offset; PostgreSQL's `position` is 1-based. */
function positionOf(cursor: number | undefined): number | undefined {
  return typeof cursor === 'number' && cursor >= 0 ? cursor + 1 : undefined;
}
