import type * as Polyglot from '@polyglot-sql/sdk';
import { analyzeStatements } from './analyze-statements';
import { PolyglotOutliner } from './polyglot-outline';
import { quoteMisreadIdentifier } from './quote-misread-identifier';
import { codePointToUtf16Offset, syntaxErrorAt } from './source-position';
import type { SchemaHint, SqlAnalysis, SqlAnalyzer, SqlDialect, SqlSyntaxError } from './sql-analyzer';

/** Enough for the rare query with several SQLite identifiers polyglot reserves; each retry quotes one. */
const MAX_REQUOTES = 3;

/**
 * The SDK, required on first use rather than imported: a process that never analyses SQL (a
 * preparation worker) does not hold it.
 */
let polyglot: typeof Polyglot | undefined;

/** `@polyglot-sql/sdk` (Rust/WASM). Its CommonJS build must load the WASM module before first use. */
export async function createPolyglotAnalyzer(): Promise<SqlAnalyzer> {
  polyglot ??= require('@polyglot-sql/sdk') as typeof Polyglot;
  await polyglot.init();
  return { name: 'polyglot', analyze: analyzeWithPolyglot };
}

function analyzeWithPolyglot(sql: string, dialect: SqlDialect, schema?: SchemaHint): SqlAnalysis {
  let text = sql;
  let firstError: SqlSyntaxError | null = null;
  for (let attempt = 0; ; attempt++) {
    const result = parseOrThrown(text, dialect);
    if (result.success) {
      const outliner = new PolyglotOutliner(text, dialect);
      return analyzeStatements(
        result.ast.map((statement) => outliner.query(statement)),
        schema,
      );
    }
    const offset = result.errorStart === undefined ? undefined : codePointToUtf16Offset(text, result.errorStart);
    // Positions are reported against the SQL the caller gave, so keep the error of the untouched text.
    firstError ??= syntaxErrorAt(text, stripPosition(result.error), offset);
    const retry = dialect === 'sqlite' && attempt < MAX_REQUOTES && offset !== undefined ? quoteMisreadIdentifier(text, offset) : null;
    if (retry === null) return { ok: false, error: firstError };
    text = retry;
  }
}

type ParseOutcome = { success: true; ast: object[] } | { success: false; error: string; errorStart?: number };

/** A WASM panic surfaces as an exception; the analyzer contract is to report, never throw. */
function parseOrThrown(sql: string, dialect: SqlDialect): ParseOutcome {
  try {
    // polyglot names PostgreSQL's dialect in full.
    const result = polyglot!.parse(sql, (dialect === 'postgres' ? 'postgresql' : dialect) as Parameters<typeof Polyglot.parse>[1]);
    if (result.success) return { success: true, ast: result.ast };
    return { success: false, error: result.error ?? 'parse failed', errorStart: result.errorStart };
  } catch (e) {
    return { success: false, error: `polyglot failed: ${e instanceof Error ? e.message : String(e)}` };
  }
}

/** polyglot prefixes its own (end-of-token) position; ours is derived from the offset instead. */
function stripPosition(message: string): string {
  return message.replace(/^\w+ error at line \d+, column \d+:\s*/, '');
}
