import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DATASETS } from '../../devkit/datasets';
import { assertReadOnlySql } from '../../activities/database/read-only-guard';
import { ReadOnlyViolation } from '../../activities/database/target-database';
import type { Dialect } from '../../core/database/schema-types';

const SPIDER = path.join(DATASETS, 'spider');
const both: Dialect[] = ['sqlite', 'mysql', 'postgres'];

function rejection(sql: string, dialect: Dialect): string {
  try {
    assertReadOnlySql(sql, dialect);
  } catch (err) {
    expect(err).toBeInstanceOf(ReadOnlyViolation);
    return (err as Error).message;
  }
  throw new Error(`accepted: ${sql}`);
}

describe('read-only guard: accepts queries', () => {
  const queries = [
    'SELECT 1',
    'select * from singer;',
    'SELECT 1; -- trailing comment; DELETE FROM t',
    "  /* leading */ SELECT name FROM singer WHERE name = 'DELETE FROM singer; DROP TABLE x'",
    'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 5) SELECT * FROM c',
    'WITH a AS (SELECT 1 AS v), b AS MATERIALIZED (SELECT v FROM a) SELECT * FROM b',
    'WITH a AS NOT MATERIALIZED (SELECT 1) VALUES (1)',
    'VALUES (1, 2), (3, 4)',
    '(SELECT 1) UNION (SELECT 2)',
    'EXPLAIN SELECT 1',
    'EXPLAIN QUERY PLAN SELECT * FROM singer',
    "SELECT replace(name, 'a', 'b') FROM singer",
    'SELECT t.update, t.delete FROM t',
    'SELECT `update` FROM `drop table`',
    'SELECT "Insert" FROM t',
    'SELECT count(*) FROM t WHERE a = "x" AND b LIKE \'%;%\'',
    'SELECT 1 -- comment with DROP TABLE t',
  ];
  test.each(queries)('%s', (sql) => {
    // Backticks quote nothing in PostgreSQL (the server refuses them), so the words inside are words there.
    for (const dialect of both.filter((d) => d !== 'postgres' || !sql.includes('`'))) expect(() => assertReadOnlySql(sql, dialect)).not.toThrow();
  });

  test('PostgreSQL strings, names and comments', () => {
    expect(() => assertReadOnlySql('SELECT $$DELETE FROM t$$, $tag$ ; DROP TABLE t $tag$', 'postgres')).not.toThrow();
    expect(() => assertReadOnlySql("SELECT E'it\\'s; DELETE FROM t', 'a''b'", 'postgres')).not.toThrow();
    expect(() => assertReadOnlySql('SELECT 1 /* outer /* inner */ DELETE FROM t */', 'postgres')).not.toThrow();
    expect(() => assertReadOnlySql('SELECT $1::int, (ARRAY[1, 2])[1], 5 # 3', 'postgres')).not.toThrow();
    // What the other dialects read as quoting is code in PostgreSQL, and is checked as such.
    expect(() => assertReadOnlySql("SELECT (ARRAY[pg_read_file('/etc/passwd')])[1]", 'postgres')).toThrow(/pg_read_file/);
    expect(() => assertReadOnlySql("/* /* */ ' */ SELECT pg_read_file('x') -- '", 'postgres')).toThrow(/pg_read_file/);
    expect(() => assertReadOnlySql("SELECT 'a\\'; DELETE FROM t; -- '", 'postgres')).toThrow(/multiple statements/);
    expect(() => assertReadOnlySql('SELECT U&"\\0070g_read_file"(\'x\')', 'postgres')).toThrow(/Unicode-escaped/);
    expect(() => assertReadOnlySql("SELECT pg_catalog.set_config('a', 'b', false)", 'postgres')).toThrow(/set_config/);
    expect(() => assertReadOnlySql('SELECT $a$ unterminated', 'postgres')).toThrow(/unterminated dollar-quoted/);
  });

  test('SQLite bracket names and MySQL specifics', () => {
    expect(() => assertReadOnlySql('SELECT [drop] FROM [delete from t]', 'sqlite')).not.toThrow();
    expect(() => assertReadOnlySql("SELECT 'it\\'s; DELETE FROM t' FROM t", 'mysql')).not.toThrow();
    // A backslash escapes the quote in MySQL: all of this is one string.
    expect(() => assertReadOnlySql("SELECT 'a\\'; DELETE FROM singer; -- '", 'mysql')).not.toThrow();
    expect(() => assertReadOnlySql('SELECT 1 # DELETE FROM t', 'mysql')).not.toThrow();
    expect(() => assertReadOnlySql('SELECT /*+ MAX_EXECUTION_TIME(10) */ 1', 'mysql')).not.toThrow();
    expect(() => assertReadOnlySql('EXPLAIN FORMAT=JSON SELECT 1', 'mysql')).not.toThrow();
    expect(() => assertReadOnlySql('SELECT CAST(x AS CHAR CHARACTER SET utf8mb4) FROM t', 'mysql')).not.toThrow();
  });

  // No false positives on real text-to-SQL: every Spider gold query (dev and train) passes, in both dialects.
  test('every Spider gold query', () => {
    const lines = ['dev_gold.sql', 'train_gold.sql'].flatMap((f) => readFileSync(`${SPIDER}/${f}`, 'utf8').split('\n')).filter((l) => l.trim());
    expect(lines.length).toBeGreaterThan(8000);
    const refused = both.flatMap((dialect) =>
      lines
        .map((l) => l.split('\t')[0])
        .filter((sql) => {
          try {
            assertReadOnlySql(sql, dialect);
            return false;
          } catch {
            return true;
          }
        })
        .map((sql) => `${dialect}: ${sql}`),
    );
    expect(refused).toEqual([]);
  });
});

describe('read-only guard: rejects writes, naming what and why', () => {
  const cases: [string, RegExp][] = [
    ['INSERT INTO singer VALUES (1)', /rejected INSERT: it adds rows/],
    ['update singer set age = 1', /rejected UPDATE: it changes rows/],
    ['DELETE FROM singer', /rejected DELETE/],
    ['REPLACE INTO singer VALUES (1)', /rejected REPLACE/],
    ['DROP TABLE singer', /rejected DROP: it changes the schema/],
    ['ALTER TABLE singer ADD COLUMN x', /rejected ALTER/],
    ['CREATE TABLE x (a)', /rejected CREATE/],
    ['CREATE TEMP TABLE x AS SELECT 1', /rejected CREATE/],
    ["ATTACH DATABASE '/tmp/x.db' AS x", /rejected ATTACH: .*read-only/],
    ['DETACH DATABASE x', /rejected DETACH/],
    ['PRAGMA journal_mode=WAL', /rejected PRAGMA/],
    ['PRAGMA user_version = 1', /rejected PRAGMA/],
    ['pragma table_info(singer)', /rejected PRAGMA/],
    ['VACUUM', /rejected VACUUM/],
    ["VACUUM INTO '/tmp/copy.db'", /rejected VACUUM/],
    ['REINDEX', /rejected REINDEX/],
    ['ANALYZE', /rejected ANALYZE/],
    ['BEGIN; DELETE FROM singer; COMMIT', /multiple statements|rejected BEGIN/],
    ['SELECT 1; DELETE FROM singer', /rejected multiple statements \("; DELETE \.\.\."\)/],
    ['SELECT 1;DELETE FROM singer;', /multiple statements/],
    ['/* harmless */ DELETE FROM singer', /rejected DELETE/],
    ['-- just a comment\nDELETE FROM singer', /rejected DELETE/],
    ['SELECT 1 /* ; */ ; /* x */ DROP TABLE singer', /multiple statements/],
    ['WITH x AS (SELECT 1) DELETE FROM singer', /rejected WITH \.\.\. DELETE/],
    ['WITH x AS (SELECT 1) INSERT INTO singer SELECT * FROM x', /rejected WITH \.\.\. INSERT/],
    ['WITH x AS (SELECT 1) REPLACE INTO singer SELECT * FROM x', /rejected WITH \.\.\. REPLACE/],
    ['WITH RECURSIVE x(a) AS (SELECT 1), y AS (SELECT 2) UPDATE singer SET age = 1', /rejected WITH \.\.\. UPDATE/],
    ['EXPLAIN DELETE FROM singer', /rejected EXPLAIN DELETE/],
    ['EXPLAIN QUERY PLAN INSERT INTO singer VALUES (1)', /rejected EXPLAIN INSERT/],
    ["SELECT load_extension('/tmp/evil.so')", /load_extension\(\)/],
    ['SELECT * FROM singer FOR UPDATE', /FOR UPDATE: it locks rows/],
    ['', /empty SQL/],
    [' ; -- nothing', /empty SQL/],
    ["SELECT 'unterminated", /cannot be checked: unterminated string/],
    ['SELECT 1\0; DELETE FROM singer', /NUL/],
  ];
  test.each(cases)('%s', (sql, message) => {
    for (const dialect of both) expect(rejection(sql, dialect)).toMatch(message);
  });

  const mysqlCases: [string, RegExp][] = [
    ["SELECT * FROM singer INTO OUTFILE '/tmp/x'", /INTO/],
    ["SELECT * FROM singer INTO DUMPFILE '/tmp/x'", /INTO/],
    ['SELECT 1 INTO @x', /INTO/],
    ['LOCK TABLES singer READ', /rejected LOCK: it takes table locks/],
    ['SET @x = 1', /rejected SET/],
    ['SET STATEMENT max_statement_time=1 FOR DELETE FROM singer', /rejected SET/],
    ['CALL p()', /rejected CALL/],
    ['HANDLER singer OPEN', /rejected HANDLER/],
    ['DO SLEEP(1)', /rejected DO/],
    ['SELECT * FROM singer LOCK IN SHARE MODE', /LOCK IN SHARE MODE/],
    ['SELECT * FROM singer FOR SHARE', /FOR SHARE/],
    ["SELECT load_file('/etc/passwd')", /load_file\(\)/],
    ['SELECT GET_LOCK("x", 10)', /get_lock\(\)/],
    ['TRUNCATE singer', /rejected TRUNCATE/],
    ['SHOW TABLES', /rejected SHOW: it is not a query/],
    ['SELECT 1 /*! ; DELETE FROM singer */', /executable comment/],
    ['SELECT 1 /*M!100000 , (DELETE) */', /executable comment/],
    // MySQL needs a space after `--`: here it is arithmetic, so the DELETE is real code.
    ['SELECT 1 --1; DELETE FROM singer', /multiple statements/],
    // An escaped backslash does not escape the quote after it: the DELETE is outside the string.
    ["SELECT 'a\\\\'; DELETE FROM singer", /multiple statements/],
  ];
  test.each(mysqlCases)('mysql: %s', (sql, message) => {
    expect(rejection(sql, 'mysql')).toMatch(message);
  });

  test('the SQLite dialect reads strings the SQLite way', () => {
    // In SQLite a backslash is an ordinary character: the string ends at the second quote.
    expect(rejection("SELECT 'a\\'; DELETE FROM singer", 'sqlite')).toMatch(/multiple statements/);
    // ...and `--` always starts a comment.
    expect(() => assertReadOnlySql('SELECT 1 --1; DELETE FROM singer', 'sqlite')).not.toThrow();
  });
});
