import type Database from 'better-sqlite3';
import { singleQuotedLiteral, sqlUnits, unquoteDoubleQuoted } from '../../core/evaluation/sql-lexical-units';

/**
 * Stock SQLite (the sqlite3 shell, Python's sqlite3, which both official evaluators use) accepts
 * double-quoted string literals (`WHERE country = "France"`: a double-quoted name that is no
 * column is read as a string). Spider and BIRD gold SQL rely on it hundreds of times, and models
 * trained on them write it. better-sqlite3 is compiled with SQLITE_DQS=0 and cannot switch it
 * back on (it does not expose sqlite3_db_config), so it refuses such a name, and says which:
 *
 *   no such column: "France" - should this be a string literal in single-quotes?
 *
 * Given that error, this returns the SQL with every "France" written as 'France', which is what
 * SQLite's legacy rule would have made of it, or null when the error is something else.
 */
const MISREAD_STRING = /^no such column: "(.*)" - should this be a string literal in single-quotes\?$/s;

export function rewriteMisreadString(sql: string, errorMessage: string): string | null {
  const match = MISREAD_STRING.exec(errorMessage.trim());
  if (!match) return null;
  const value = match[1];
  let changed = false;
  const text = sqlUnits(sql)
    .map((u) => {
      if (u.kind !== 'quoted' || unquoteDoubleQuoted(u.text) !== value) return u.text;
      changed = true;
      return singleQuotedLiteral(value);
    })
    .join('');
  return changed ? text : null;
}

/** Enough for the longest IN ("a", "b", ...) list in the benchmarks' gold SQL. */
export const MAX_STRING_REWRITES = 64;

/**
 * Prepares `sql` as stock SQLite would read it: each double-quoted name SQLite says is no column
 * becomes a string literal, one at a time, exactly as the legacy rule resolves them. Preparing is
 * cheap and runs nothing, so the retries cost no query time.
 */
export function prepareWithLegacyStrings(db: Database.Database, sql: string): Database.Statement {
  let text = sql;
  for (let rewrites = 0; ; rewrites++) {
    try {
      return db.prepare(text);
    } catch (err) {
      const rewritten = rewrites < MAX_STRING_REWRITES ? rewriteMisreadString(text, (err as Error).message) : null;
      if (rewritten === null) throw err;
      text = rewritten;
    }
  }
}
