import { ReadOnlyViolation } from './target-database';
import type { Dialect } from '../../core/database/schema-types';
import { refusedFunction } from './allowed-functions';
import { scanSql, SqlScanError, type SqlToken } from './sql-tokens';

/**
 * The statement guard: the first of several layers that keep generated SQL from changing a
 * user's database (the others are engine-level: read-only connections and transactions, and on
 * PostgreSQL the server's own parser). It returns the text to send, which is exactly the text it
 * checked.
 *
 * Every break of this guard so far was one class: the guard read the text differently from the
 * server (a `--` comment that PostgreSQL ends at a carriage return, one that MariaDB starts before
 * byte 0x7f). Generated SQL needs neither comments nor control characters, so the guard takes
 * both out of the game: control characters (all but tab and newline; CR LF counts as a newline)
 * are refused, comments are removed by the engine's own lexing rules, and text that would still
 * start a comment in any engine (`--` or `/*` outside quotes) is refused. What is left is one
 * statement, SELECT, WITH ... SELECT or VALUES, calling only allowed functions
 * (allowed-functions.ts), with none of the clauses that write or lock from inside a query
 * (SELECT ... INTO, FOR UPDATE, ...). It works on tokens, so keywords inside strings and quoted
 * names are never mistaken for statements.
 */
export function readOnlyStatement(sql: string, dialect: Dialect): string {
  const text = withoutComments(refuseControlCharacters(sql.replace(/\r\n/g, '\n')), dialect);
  const tokens = scan(text, dialect).tokens;
  refuseCommentMarkers(tokens);
  const statements = splitStatements(tokens);
  if (statements.length === 0) reject('empty SQL', 'there is no statement to run');
  if (statements.length > 1) {
    const second = statements[1][0];
    const what = second.kind === 'word' ? `"; ${second.upper} ..."` : 'a second statement';
    reject(`multiple statements (${what})`, 'only one statement may run, so nothing can follow the query');
  }
  const statement = statements[0];
  checkStatementKind(statement);
  checkQueryClauses(statement);
  checkFunctionCalls(statement, dialect);
  // Sent alone, without a trailing `;` (PostgreSQL's DECLARE ... CURSOR FOR cannot end in one).
  return statementText(statement, tokens, text);
}

/** Tab and newline are all the whitespace SQL needs; every other control character is refused (NUL, CR, form feed, 0x7f, ...). */
function refuseControlCharacters(sql: string): string {
  const control = /[\x00-\x08\x0b-\x1f\x7f]/.exec(sql);
  if (control) {
    const code = control[0].charCodeAt(0).toString(16).padStart(2, '0');
    reject(
      `a control character (0x${code}) at offset ${control.index}`,
      'engines disagree on what such characters end or start (a carriage return ends a PostgreSQL comment, 0x7f starts a MariaDB one), and a query needs none',
    );
  }
  return sql;
}

function scan(sql: string, dialect: Dialect): ReturnType<typeof scanSql> {
  try {
    return scanSql(sql, dialect);
  } catch (e) {
    if (e instanceof SqlScanError) reject('SQL that cannot be checked', e.message);
    throw e;
  }
}

/** `sql` with each comment replaced by one space (so `a/**\/b` stays two words), by the engine's lexing rules. */
function withoutComments(sql: string, dialect: Dialect): string {
  const { comments } = scan(sql, dialect);
  let out = '';
  let at = 0;
  for (const c of comments) {
    out += sql.slice(at, c.start) + ' ';
    at = c.end;
  }
  return out + sql.slice(at);
}

/**
 * After the comments are gone, `--` and `/*` outside quotes would still start a comment in some
 * engine (`1--1` is arithmetic to MySQL, a comment to PostgreSQL and SQLite): refused, so no engine
 * can read a comment into the text the guard checked.
 */
function refuseCommentMarkers(tokens: SqlToken[]): void {
  for (let i = 0; i + 1 < tokens.length; i++) {
    const [a, b] = [tokens[i], tokens[i + 1]];
    if (a.kind !== 'symbol' || b.kind !== 'symbol' || b.start !== a.start + 1) continue;
    if ((a.text === '-' && b.text === '-') || (a.text === '/' && b.text === '*')) {
      reject(`"${a.text}${b.text}" outside a comment`, 'some engine reads it as the start of a comment; write "- -" or "/ *" with a space');
    }
  }
}

/** The statement's own text: from its first token to the `;` after its last one (or the end), so empty statements around it are not sent. */
function statementText(statement: SqlToken[], tokens: SqlToken[], text: string): string {
  const after = tokens[tokens.indexOf(statement[statement.length - 1]) + 1];
  return text.slice(statement[0].start, after ? after.start : text.length).trim();
}

const ALLOWED = 'Only SELECT, WITH ... SELECT and VALUES may run.';

function reject(what: string, why: string): never {
  throw new ReadOnlyViolation(`rejected ${what}: ${why}. ${ALLOWED}`);
}

/** Why each non-query statement is refused, so the error tells the caller what it tried. */
const STATEMENT_REASONS: Record<string, string> = {
  INSERT: 'it adds rows',
  REPLACE: 'it adds or overwrites rows',
  UPSERT: 'it adds or overwrites rows',
  UPDATE: 'it changes rows',
  DELETE: 'it deletes rows',
  MERGE: 'it changes rows',
  CREATE: 'it changes the schema',
  DROP: 'it changes the schema',
  ALTER: 'it changes the schema',
  TRUNCATE: 'it deletes rows',
  RENAME: 'it changes the schema',
  ATTACH: 'it opens (and may create) another database file; SQLite even reports it as read-only',
  DETACH: 'it changes which database files the connection uses',
  PRAGMA: 'it can change database or connection settings (journal_mode, user_version, ...)',
  VACUUM: 'it rewrites the database file',
  REINDEX: 'it rebuilds indexes',
  ANALYZE: 'it writes statistics tables (or, on MariaDB, runs the statement)',
  OPTIMIZE: 'it rewrites tables',
  REPAIR: 'it rewrites tables',
  BEGIN: 'it controls transactions',
  START: 'it controls transactions',
  COMMIT: 'it controls transactions',
  END: 'it controls transactions',
  ROLLBACK: 'it controls transactions',
  SAVEPOINT: 'it controls transactions',
  RELEASE: 'it controls transactions',
  XA: 'it controls transactions',
  SET: 'it changes session or server variables',
  LOCK: 'it takes table locks',
  UNLOCK: 'it releases table locks',
  CALL: 'it runs a stored procedure, which may write',
  DO: 'it evaluates expressions for their side effects',
  HANDLER: 'it opens a low-level table cursor',
  PREPARE: 'it prepares a statement that could then write',
  EXECUTE: 'it runs a prepared statement, which may write',
  DEALLOCATE: 'it manages prepared statements',
  LOAD: 'it loads data or files',
  GRANT: 'it changes privileges',
  REVOKE: 'it changes privileges',
  FLUSH: 'it changes server state',
  RESET: 'it changes server state',
  PURGE: 'it deletes server logs',
  KILL: 'it stops other connections',
  SHUTDOWN: 'it stops the server',
  INSTALL: 'it installs server plugins',
  UNINSTALL: 'it removes server plugins',
  USE: 'it changes the current database',
  COPY: 'it reads or writes files on the server, or runs a program there (COPY ... PROGRAM)',
  DISCARD: 'it drops session state',
  LISTEN: 'it subscribes the session to notifications',
  UNLISTEN: "it changes the session's subscriptions",
  NOTIFY: 'it sends notifications to other sessions',
  DECLARE: 'it opens a cursor that outlives the statement',
  FETCH: 'it reads from a cursor of the session',
  MOVE: 'it moves a cursor of the session',
  CLOSE: 'it closes a cursor of the session',
  CHECKPOINT: 'it forces a server checkpoint',
  CLUSTER: 'it rewrites tables',
  REFRESH: 'it rewrites a materialized view',
  COMMENT: "it changes the schema's comments",
  SECURITY: 'it changes security labels',
  REASSIGN: 'it changes object owners',
  IMPORT: 'it creates foreign tables',
  ABORT: 'it controls transactions',
  EXPLAIN: 'a plan answers no question (and EXPLAIN ANALYZE runs the statement)',
};

function checkStatementKind(tokens: SqlToken[]): void {
  let i = skipOpenParens(tokens, 0);
  const first = tokens[i];
  if (first?.kind !== 'word') reject('a statement that does not start with a keyword', 'it is not a query');
  switch (first.upper) {
    case 'SELECT':
    case 'VALUES':
      return;
    case 'WITH': {
      i = skipOpenParens(tokens, skipCommonTableExpressions(tokens, i + 1));
      const main = tokens[i];
      if (main?.kind === 'word' && (main.upper === 'SELECT' || main.upper === 'VALUES')) return;
      const name = main?.kind === 'word' ? main.upper : 'something other than SELECT';
      return reject(`WITH ... ${name}`, STATEMENT_REASONS[name] ?? 'the statement after the WITH clause is not a query');
    }
    default:
      reject(first.upper, STATEMENT_REASONS[first.upper] ?? 'it is not a query');
  }
}

/** Words that have no business anywhere in a query; catches writes the structure check missed. */
const FORBIDDEN_WORDS: Record<string, string> = {
  INTO: 'SELECT ... INTO writes a file (OUTFILE, DUMPFILE) or variables',
  OUTFILE: 'it writes a file on the server',
  DUMPFILE: 'it writes a file on the server',
  INSERT: STATEMENT_REASONS.INSERT,
  UPDATE: 'it changes rows (or, as FOR UPDATE, locks them)',
  DELETE: STATEMENT_REASONS.DELETE,
  CREATE: STATEMENT_REASONS.CREATE,
  DROP: STATEMENT_REASONS.DROP,
  ALTER: STATEMENT_REASONS.ALTER,
  TRUNCATE: STATEMENT_REASONS.TRUNCATE,
  ATTACH: STATEMENT_REASONS.ATTACH,
  DETACH: STATEMENT_REASONS.DETACH,
  PRAGMA: STATEMENT_REASONS.PRAGMA,
  VACUUM: STATEMENT_REASONS.VACUUM,
  REINDEX: STATEMENT_REASONS.REINDEX,
  GRANT: STATEMENT_REASONS.GRANT,
  REVOKE: STATEMENT_REASONS.REVOKE,
  HANDLER: STATEMENT_REASONS.HANDLER,
  PROCEDURE: 'SELECT ... PROCEDURE runs a procedure over the result',
};

function checkQueryClauses(tokens: SqlToken[]): void {
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.kind !== 'word') continue;
    // `t.update` is a column called update, not the keyword.
    const prev = tokens[i - 1];
    if (prev?.kind === 'symbol' && prev.text === '.') continue;
    const nextWord = wordAt(tokens, i + 1);
    // FOR UPDATE / SHARE, and PostgreSQL's FOR NO KEY UPDATE / FOR KEY SHARE.
    if (t.upper === 'FOR' && ['UPDATE', 'SHARE', 'NO', 'KEY'].includes(nextWord)) {
      reject(`SELECT ... FOR ${nextWord}`, 'it locks rows');
    }
    if (t.upper === 'LOCK' && nextWord === 'IN') reject('SELECT ... LOCK IN SHARE MODE', 'it locks rows');
    if (FORBIDDEN_WORDS[t.upper]) reject(t.upper, FORBIDDEN_WORDS[t.upper]);
  }
}

/**
 * Words a parenthesis may follow without being a function call: keywords that take a
 * parenthesised list or subquery (`IN (`, `OVER (`, `WITHIN GROUP (`, `FILTER (`, index hints).
 */
const NOT_CALLS = new Set(
  (
    'SELECT FROM WHERE AND OR NOT XOR IN EXISTS ANY SOME ALL JOIN LATERAL ON USING AS WITH RECURSIVE MATERIALIZED ' +
    'UNION INTERSECT EXCEPT MINUS HAVING LIMIT OFFSET VALUES BY OVER FILTER GROUP SETS CUBE ROLLUP WHEN THEN ELSE CASE ' +
    'END IS LIKE ILIKE GLOB REGEXP RLIKE SIMILAR TO ESCAPE BETWEEN DISTINCT ARRAY INDEX KEY PARTITION FETCH ROWS RANGE ' +
    'OVERLAPS COLLATE NULLS ASC DESC WINDOW RETURNS REPEATABLE'
  ).split(' '),
);

/**
 * Every call must be of an allowed function (allowed-functions.ts). A call is a name, bare or
 * quoted (MySQL runs `load_file`('/etc/passwd'), PostgreSQL "pg_read_file"('x')), before `(`,
 * unless the name is a keyword taking a list, a type after AS or `::` (CAST(x AS DECIMAL(10, 2))),
 * or a common table expression's column list (`t(a, b) AS (`). A qualified call (`schema.f(`)
 * runs a function of that schema: only PostgreSQL's own `pg_catalog` is allowed.
 */
function checkFunctionCalls(tokens: SqlToken[], dialect: Dialect): void {
  for (let i = 0; i + 1 < tokens.length; i++) {
    const t = tokens[i];
    if ((t.kind !== 'word' && t.kind !== 'quoted') || !isSymbol(tokens[i + 1], '(')) continue;
    if (t.kind === 'word' && NOT_CALLS.has(t.upper)) continue;
    const prev = tokens[i - 1];
    if (isWord(prev, 'AS') || (isSymbol(prev, ':') && isSymbol(tokens[i - 2], ':'))) continue;
    // PostgreSQL's built-in sampling methods (TABLESAMPLE BERNOULLI (10) REPEATABLE (1)); an extension's method is refused.
    if (isWord(prev, 'TABLESAMPLE') && (t.upper === 'BERNOULLI' || t.upper === 'SYSTEM')) continue;
    if (isCommonTableExpressionColumns(tokens, i + 1)) continue;
    const name = t.upper.toLowerCase();
    if (isSymbol(prev, '.')) {
      const schema = tokens[i - 2];
      const qualifier = schema && schema.kind !== 'symbol' && 'upper' in schema ? schema.upper : '';
      if (!(dialect === 'postgres' && qualifier === 'PG_CATALOG')) {
        reject(`${qualifier.toLowerCase() || '?'}.${name}()`, 'a function of a schema is user-defined code, which generated SQL may not call');
      }
    }
    const refusal = refusedFunction(t.upper, dialect);
    if (refusal) reject(`${name}()${t.kind === 'quoted' ? ' (quoted)' : ''}`, refusal);
  }
}

/** `(` at `open` starts `name (a, b) AS [NOT] [MATERIALIZED] (`: a WITH clause's column list, not a call. */
function isCommonTableExpressionColumns(tokens: SqlToken[], open: number): boolean {
  let i = skipParenthesised(tokens, open);
  if (!isWord(tokens[i], 'AS')) return false;
  i++;
  if (isWord(tokens[i], 'NOT')) i++;
  if (isWord(tokens[i], 'MATERIALIZED')) i++;
  return isSymbol(tokens[i], '(');
}

function splitStatements(tokens: SqlToken[]): SqlToken[][] {
  const statements: SqlToken[][] = [];
  let current: SqlToken[] = [];
  for (const t of tokens) {
    if (t.kind === 'symbol' && t.text === ';') {
      if (current.length > 0) statements.push(current);
      current = [];
    } else {
      current.push(t);
    }
  }
  if (current.length > 0) statements.push(current);
  return statements;
}

function skipOpenParens(tokens: SqlToken[], i: number): number {
  while (isSymbol(tokens[i], '(')) i++;
  return i;
}

/** `[RECURSIVE] name [(cols)] AS [NOT] [MATERIALIZED] (...) [, ...]`: returns the index after it. */
function skipCommonTableExpressions(tokens: SqlToken[], i: number): number {
  if (isWord(tokens[i], 'RECURSIVE')) i++;
  for (;;) {
    const name = tokens[i];
    if (!name || name.kind === 'symbol' || name.kind === 'number')
      reject('a WITH clause that cannot be checked', 'a common table expression name was expected');
    i++;
    if (isSymbol(tokens[i], '(')) i = skipParenthesised(tokens, i);
    if (!isWord(tokens[i], 'AS')) reject('a WITH clause that cannot be checked', 'AS was expected after the name');
    i++;
    if (isWord(tokens[i], 'NOT')) i++;
    if (isWord(tokens[i], 'MATERIALIZED')) i++;
    if (!isSymbol(tokens[i], '(')) reject('a WITH clause that cannot be checked', '"(" was expected after AS');
    i = skipParenthesised(tokens, i);
    if (!isSymbol(tokens[i], ',')) return i;
    i++;
  }
}

/** `tokens[i]` is "("; returns the index just after its matching ")". */
function skipParenthesised(tokens: SqlToken[], i: number): number {
  let depth = 0;
  for (; i < tokens.length; i++) {
    if (isSymbol(tokens[i], '(')) depth++;
    else if (isSymbol(tokens[i], ')') && --depth === 0) return i + 1;
  }
  reject('SQL with unbalanced parentheses', 'it cannot be checked');
}

/** The upper-cased word at `i`, or '' when there is none. */
function wordAt(tokens: SqlToken[], i: number): string {
  const t = tokens[i];
  return t?.kind === 'word' ? t.upper : '';
}

function isWord(t: SqlToken | undefined, upper: string): boolean {
  return t?.kind === 'word' && t.upper === upper;
}

function isSymbol(t: SqlToken | undefined, text: string): boolean {
  return t?.kind === 'symbol' && t.text === text;
}
