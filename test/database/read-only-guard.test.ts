import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DATASETS } from '../../devkit/datasets';
import { readOnlyStatement } from '../../activities/database/read-only-guard';
import { ReadOnlyViolation } from '../../activities/database/target-database';
import type { Dialect } from '../../core/database/schema-types';

const SPIDER = path.join(DATASETS, 'spider');
const both: Dialect[] = ['sqlite', 'mysql', 'postgres'];

function rejection(sql: string, dialect: Dialect): string {
  try {
    readOnlyStatement(sql, dialect);
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
    "SELECT replace(name, 'a', 'b') FROM singer",
    'SELECT t.update, t.delete FROM t',
    'SELECT `update` FROM `drop table`',
    'SELECT "Insert" FROM t',
    'SELECT count(*) FROM t WHERE a = "x" AND b LIKE \'%;%\'',
    'SELECT 1 -- comment with DROP TABLE t',
  ];
  test.each(queries)('%s', (sql) => {
    // Backticks quote nothing in PostgreSQL (the server refuses them), so the words inside are words there.
    for (const dialect of both.filter((d) => d !== 'postgres' || !sql.includes('`'))) expect(() => readOnlyStatement(sql, dialect)).not.toThrow();
  });

  test('PostgreSQL strings, names and comments', () => {
    expect(() => readOnlyStatement('SELECT $$DELETE FROM t$$, $tag$ ; DROP TABLE t $tag$', 'postgres')).not.toThrow();
    expect(() => readOnlyStatement("SELECT E'it\\'s; DELETE FROM t', 'a''b'", 'postgres')).not.toThrow();
    expect(() => readOnlyStatement('SELECT 1 /* outer /* inner */ DELETE FROM t */', 'postgres')).not.toThrow();
    expect(() => readOnlyStatement('SELECT $1::int, (ARRAY[1, 2])[1], 5 # 3', 'postgres')).not.toThrow();
    // What the other dialects read as quoting is code in PostgreSQL, and is checked as such.
    expect(() => readOnlyStatement("SELECT (ARRAY[pg_read_file('/etc/passwd')])[1]", 'postgres')).toThrow(/pg_read_file/);
    expect(() => readOnlyStatement("/* /* */ ' */ SELECT pg_read_file('x') -- '", 'postgres')).toThrow(/pg_read_file/);
    expect(() => readOnlyStatement("SELECT 'a\\'; DELETE FROM t; -- '", 'postgres')).toThrow(/multiple statements/);
    expect(() => readOnlyStatement('SELECT U&"\\0070g_read_file"(\'x\')', 'postgres')).toThrow(/Unicode-escaped/);
    expect(() => readOnlyStatement("SELECT pg_catalog.set_config('a', 'b', false)", 'postgres')).toThrow(/set_config/);
    expect(() => readOnlyStatement('SELECT $a$ unterminated', 'postgres')).toThrow(/unterminated dollar-quoted/);
  });

  test('SQLite bracket names and MySQL specifics', () => {
    expect(() => readOnlyStatement('SELECT [drop] FROM [delete from t]', 'sqlite')).not.toThrow();
    expect(() => readOnlyStatement("SELECT 'it\\'s; DELETE FROM t' FROM t", 'mysql')).not.toThrow();
    // A backslash escapes the quote in MySQL: all of this is one string.
    expect(() => readOnlyStatement("SELECT 'a\\'; DELETE FROM singer; -- '", 'mysql')).not.toThrow();
    expect(() => readOnlyStatement('SELECT 1 # DELETE FROM t', 'mysql')).not.toThrow();
    expect(() => readOnlyStatement('SELECT /*+ MAX_EXECUTION_TIME(10) */ 1', 'mysql')).not.toThrow();
    expect(() => readOnlyStatement('SELECT CAST(x AS CHAR CHARACTER SET utf8mb4) FROM t', 'mysql')).not.toThrow();
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
            readOnlyStatement(sql, dialect);
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
    ['EXPLAIN SELECT 1', /rejected EXPLAIN: a plan answers no question/],
    ['EXPLAIN QUERY PLAN INSERT INTO singer VALUES (1)', /rejected EXPLAIN/],
    ["SELECT load_extension('/tmp/evil.so')", /load_extension\(\)/],
    ['SELECT * FROM singer FOR UPDATE', /FOR UPDATE: it locks rows/],
    ['', /empty SQL/],
    [' ; -- nothing', /empty SQL/],
    ["SELECT 'unterminated", /cannot be checked: unterminated string/],
    ['SELECT 1\0; DELETE FROM singer', /control character \(0x00\)/],
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
    // MySQL needs a space after `--` (here it is arithmetic), PostgreSQL and SQLite do not: no engine may read a comment the guard did not.
    ['SELECT 1 --1; DELETE FROM singer', /"--" outside a comment/],
    // An escaped backslash does not escape the quote after it: the DELETE is outside the string.
    ["SELECT 'a\\\\'; DELETE FROM singer", /multiple statements/],
  ];
  test.each(mysqlCases)('mysql: %s', (sql, message) => {
    expect(rejection(sql, 'mysql')).toMatch(message);
  });

  test('the SQLite dialect reads strings the SQLite way', () => {
    // In SQLite a backslash is an ordinary character: the string ends at the second quote.
    expect(rejection("SELECT 'a\\'; DELETE FROM singer", 'sqlite')).toMatch(/multiple statements/);
    // ...and `--` always starts a comment, which is removed from the text sent.
    expect(readOnlyStatement('SELECT 1 --1; DELETE FROM singer', 'sqlite')).toBe('SELECT 1');
  });
});

describe('read-only guard: the server runs exactly the text the guard read', () => {
  test('comments are removed by the engine’s rules and the statement is sent alone', () => {
    expect(readOnlyStatement('SELECT 1 -- trailing; DELETE FROM t', 'postgres')).toBe('SELECT 1');
    expect(readOnlyStatement('/* why */ SELECT a/**/FROM t;', 'sqlite')).toBe('SELECT a FROM t');
    expect(readOnlyStatement('SELECT /*+ MAX_EXECUTION_TIME(10) */ 1 # note', 'mysql')).toBe('SELECT   1');
    expect(readOnlyStatement(';; SELECT 1 ;;', 'mysql')).toBe('SELECT 1');
    expect(readOnlyStatement("SELECT '-- not a comment', 'a /* b */ c'", 'postgres')).toBe("SELECT '-- not a comment', 'a /* b */ c'");
    // CR LF is a newline; the rest of the text is unchanged.
    expect(readOnlyStatement('SELECT 1\r\nFROM t', 'sqlite')).toBe('SELECT 1\nFROM t');
  });

  // Each rule where an engine's lexer and a naive scanner part ways (the breaks found on PostgreSQL 15 and MariaDB 10.11).
  const desyncs: [string, Dialect, RegExp][] = [
    // PostgreSQL ends a `--` comment at a carriage return: the rest would be code the guard took for a comment.
    ['SELECT 1 -- x\r; COMMIT; BEGIN READ WRITE; DELETE FROM singer', 'postgres', /control character \(0x0d\)/],
    // MariaDB starts a `--` comment before 0x7f: a quote inside it would open a string only for the guard.
    ["SELECT 1 --\x7f '\nINTO OUTFILE '/tmp/x' -- '", 'mysql', /control character \(0x7f\)/],
    ['SELECT 1\f', 'sqlite', /control character \(0x0c\)/],
    ['SELECT 1\v', 'postgres', /control character \(0x0b\)/],
    ['SELECT 1\x1b', 'mysql', /control character \(0x1b\)/],
    // Executable comments run in MySQL/MariaDB: refused, not removed.
    ['SELECT 1 /*!50000 , (SELECT 1) */', 'mysql', /executable comment/],
    ['SELECT 1 /*M!100000 , 2 */', 'mysql', /executable comment/],
    // A backslash escapes a quote in MySQL strings: the DELETE is inside the string, then a second statement follows.
    ["SELECT 'a\\\\'; DELETE FROM singer", 'mysql', /multiple statements/],
  ];
  test.each(desyncs)('%j (%s) is refused', (sql, dialect, message) => {
    expect(rejection(sql, dialect)).toMatch(message);
  });

  test('where the engines agree on a comment, it is removed; a backslash-escaped quote stays inside its MySQL string', () => {
    expect(readOnlyStatement('SELECT 2--1', 'postgres')).toBe('SELECT 2');
    // MySQL rejects an unterminated block comment; what is sent is the text before it.
    expect(readOnlyStatement('SELECT 4 /*/ 2', 'mysql')).toBe('SELECT 4');
    expect(readOnlyStatement('SELECT "a\\"; DELETE FROM singer -- "', 'mysql')).toBe('SELECT "a\\"; DELETE FROM singer -- "');
  });

  test('tab and newline are the whitespace a query keeps', () => {
    expect(readOnlyStatement('SELECT\t1\nFROM t', 'postgres')).toBe('SELECT\t1\nFROM t');
  });
});

describe('read-only guard: functions by allowlist', () => {
  const refused: [string, Dialect, RegExp][] = [
    ["SELECT * FROM ts_stat('SELECT pg_read_file(''/etc/passwd'')::tsvector')", 'postgres', /ts_stat\(\)/],
    ["SELECT ts_rewrite('a'::tsquery, 'SELECT 1')", 'postgres', /ts_rewrite\(\)/],
    ["SELECT query_to_xml('DELETE FROM singer', true, true, '')", 'postgres', /query_to_xml\(\)/],
    ['SELECT pg_sleep(100)', 'postgres', /pg_sleep\(\)/],
    ['SELECT "pg_read_file"(\'x\')', 'postgres', /pg_read_file/],
    ['SELECT public.sneaky_delete()', 'postgres', /public\.sneaky_delete\(\)/],
    ['SELECT sneaky_delete()', 'postgres', /sneaky_delete\(\) is not among the functions/],
    ["SELECT lo_import('/etc/passwd')", 'postgres', /lo_import/],
    ['SELECT SLEEP(10)', 'mysql', /sleep\(\)/],
    ['SELECT BENCHMARK(1e9, MD5(1))', 'mysql', /benchmark\(\)/],
    ["SELECT `load_file`('/etc/passwd')", 'mysql', /load_file\(\) \(quoted\)/],
    ['SELECT shop.evil(1)', 'mysql', /shop\.evil\(\)/],
    ["SELECT load_extension('x')", 'sqlite', /load_extension\(\)/],
    ["SELECT readfile('/etc/passwd')", 'sqlite', /readfile\(\)/],
  ];
  test.each(refused)('%s (%s)', (sql, dialect, message) => {
    expect(rejection(sql, dialect)).toMatch(message);
  });

  const accepted: [string, Dialect][] = [
    ['SELECT CAST(price AS DECIMAL(10, 2)), COUNT(DISTINCT id) FROM t', 'mysql'],
    ['SELECT CONVERT(x, DECIMAL(10, 2)) FROM t', 'mysql'],
    ['SELECT name::varchar(20), pg_catalog.lower(name) FROM t', 'postgres'],
    ['WITH c (a, b) AS (SELECT 1, 2), d(x) AS MATERIALIZED (SELECT 3) SELECT * FROM c, d', 'postgres'],
    ['SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY x) FILTER (WHERE x > 0) FROM t', 'postgres'],
    ['SELECT RANK() OVER (PARTITION BY a ORDER BY b) FROM t WHERE a IN (1, 2) AND EXISTS (SELECT 1)', 'sqlite'],
    ["SELECT strftime('%Y', d), IIF(a > 1, 'x', 'y'), julianday(d) FROM t", 'sqlite'],
    ["SELECT * FROM t USE INDEX (i) WHERE MATCH (a) AGAINST ('x')", 'mysql'],
    ['SELECT a FROM t TABLESAMPLE BERNOULLI (10) REPEATABLE (7)', 'postgres'],
  ];
  test.each(accepted)('%s (%s) is accepted', (sql, dialect) => {
    expect(() => readOnlyStatement(sql, dialect)).not.toThrow();
  });

  // What a good model writes: every BIRD gold query (dev in SQLite, mini-dev in each engine's own dialect) passes.
  test('every BIRD gold query in its dialect', () => {
    const files: [string, Dialect][] = [
      ['bird/dev_gold.sql', 'sqlite'],
      ['bird/mini_dev/mini_dev_sqlite_gold.sql', 'sqlite'],
      ['bird/mini_dev/mini_dev_mysql_gold.sql', 'mysql'],
      ['bird/mini_dev/mini_dev_postgresql_gold.sql', 'postgres'],
    ];
    const refusedGold = files.flatMap(([file, dialect]) =>
      readFileSync(path.join(DATASETS, file), 'utf8')
        .split('\n')
        .filter((l) => l.trim())
        .map((l) => l.split('\t')[0])
        .flatMap((sql) => {
          try {
            readOnlyStatement(sql, dialect);
            return [];
          } catch (err) {
            return [`${dialect}: ${(err as Error).message.slice(0, 80)}: ${sql}`];
          }
        }),
    );
    expect(refusedGold).toEqual([]);
  });
});
