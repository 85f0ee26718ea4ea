import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PostgresSyntaxError } from '../../activities/database/postgres-parser';
import { assertPostgresQuery } from '../../activities/database/postgres-statement-check';
import { ReadOnlyViolation } from '../../activities/database/target-database';
import { SPIDER_DIR } from './spider-files';

/** As a database would give them: functions callable with one argument that no column is named after. */
const FIELD_FUNCTIONS = new Set(['pg_read_file', 'ts_stat', 'query_to_xml', 'lo_import']);
const check = (sql: string) => assertPostgresQuery(sql, FIELD_FUNCTIONS);

/**
 * The check on PostgreSQL's parse tree (postgres-statement-check.ts), without a server: what the
 * token guard could be fooled about is read here by PostgreSQL's own grammar.
 */
describe('the PostgreSQL parse-tree check', () => {
  test.each([
    "SELECT count(*), max(age) FROM singer WHERE name LIKE 'a%' GROUP BY country HAVING count(*) > 1 ORDER BY 1 DESC LIMIT 3",
    'SELECT T1.name FROM singer AS T1 JOIN singer_in_concert AS T2 ON T1.singer_id = T2.singer_id',
    'VALUES (1), (2)',
    'SELECT 1 UNION SELECT 2 INTERSECT SELECT 3 EXCEPT SELECT 4',
    'WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 5) SELECT n FROM r',
    'SELECT x, row_number() OVER (PARTITION BY y ORDER BY z), lag(x) OVER w FROM t WINDOW w AS (ORDER BY x)',
    "SELECT d AT TIME ZONE 'UTC', extract(year FROM d), substring(s FROM 2 FOR 3), trim(both 'x' FROM s), a LIKE b ESCAPE '!' FROM t",
    'SELECT CAST(a AS varchar(10)), a::int, a::text[], a::pg_catalog.int8, pg_catalog.count(*) FROM t',
    'SELECT * FROM generate_series(1, 3) AS g(n) CROSS JOIN LATERAL (SELECT n * 2 AS m) x',
    "SELECT E'\\x41', $$a$$, $t$b$t$, 'it''s' FROM t",
    'SELECT 1 /* /* nested */ ; DELETE FROM singer */',
    'SELECT 1 -- a comment that \u000b does not end; DELETE FROM singer',
    'SELECT * FROM t TABLESAMPLE bernoulli (10) REPEATABLE (1)',
    'SELECT n1.c FROM n1 WHERE n1.c IN (SELECT c FROM json_to_recordset($1::json) AS r(c text))',
    'SELECT 1;',
  ])('allows %s', async (sql) => {
    await expect(check(sql)).resolves.toBeUndefined();
  });

  test.each([
    // what hid the rest of the text from a scanner: PostgreSQL ends a -- comment at \r too
    ['SELECT 1 -- c\r; COMMIT; BEGIN READ WRITE; DELETE FROM singer', /second statement \(TRANSACTION\)/],
    ['SELECT 1 \f; DELETE FROM singer', /second statement \(DELETE\)/],
    ["SELECT 'a\u0000'; DELETE FROM singer", /NUL/],
    ['', /empty SQL/],
    ['-- nothing', /empty SQL/],
    ['EXPLAIN SELECT 1', /EXPLAIN: decodex sends no EXPLAIN/],
    ['EXPLAIN ANALYZE DELETE FROM singer', /EXPLAIN/],
    ["COPY singer TO PROGRAM 'id'", /COPY: it reads or writes files/],
    ['SET statement_timeout = 0', /VARIABLE SET: it changes settings/],
    ['WITH x AS (DELETE FROM singer RETURNING 1) SELECT * FROM x', /WITH x AS \(DELETE\): a common table expression may only be a query/],
    ['SELECT * FROM (WITH y AS (UPDATE t SET a = 1 RETURNING a) SELECT * FROM y) s', /WITH y AS \(UPDATE\)/],
    ['SELECT * INTO copy FROM singer', /SELECT \.\.\. INTO: it creates a table/],
    ['SELECT * FROM (SELECT * FROM singer FOR UPDATE) s', /FOR UPDATE \/ FOR SHARE: it locks rows/],
    ['SELECT * FROM singer FOR KEY SHARE', /it locks rows/],
    // functions: not on the allowlist, wherever they are
    ["SELECT ts_stat('SELECT 1')", /a call of ts_stat\(\): ts_stat\(\) is not among the functions/],
    ["SELECT * FROM ts_rewrite('a'::tsquery, 'SELECT 1')", /ts_rewrite/],
    ["SELECT query_to_xml('DELETE FROM singer RETURNING 1', true, true, '')", /query_to_xml/],
    ["SELECT xpath('/a', '<a/>'::xml)", /xpath/],
    ["SELECT pg_catalog.pg_read_file('/etc/passwd')", /pg_catalog\.pg_read_file\(\)/],
    ["SELECT lo_import('/etc/passwd')", /lo_import/],
    ["SELECT set_config('default_transaction_read_only', 'off', false)", /set_config/],
    ['SELECT pg_terminate_backend(1)', /pg_terminate_backend/],
    ['SELECT sneaky_delete()', /sneaky_delete/],
    ['SELECT s.name FROM singer s, LATERAL (SELECT sneaky_delete()) x', /sneaky_delete/],
    ['SELECT max(x) FILTER (WHERE pg_sleep(1) IS NULL) FROM t', /pg_sleep/],
    ['SELECT public.lower(name) FROM singer', /public\.lower\(\): a function in a schema other than pg_catalog/],
    ['SELECT "Count"(*) FROM singer', /"Count"\(\): a quoted name with capitals/],
    ["SELECT pg_catalog.timezone('UTC', now()), timezone('UTC', now())", /a call of timezone\(\)/],
    // a field that is a call
    ["SELECT ('/etc/passwd'::text).pg_read_file", /the field \.pg_read_file: no column is called pg_read_file/],
    ["SELECT t.ts_stat FROM (SELECT 'SELECT 1'::text AS t) s", /the field \.ts_stat/],
    // the database's own operators and types
    ['SELECT a OPERATOR(public.+) b FROM t', /OPERATOR\(public\.\+\)/],
    ['SELECT x FROM t ORDER BY x USING OPERATOR(public.<)', /OPERATOR\(public\.<\)/],
    ['SELECT x FROM t WHERE x OPERATOR(public.=) ANY (SELECT 1)', /OPERATOR\(public\.=\)/],
    ['SELECT a::public.mood FROM t', /the type public\.mood/],
    ['SELECT * FROM f() AS r(a public.mood)', /the type public\.mood|a call of f\(\)/],
    // syntax the check does not take
    ["SELECT JSON_OBJECT('a': 1)", /SQL\/JSON syntax/],
    ['SELECT x IS JSON FROM t', /SQL\/JSON syntax/],
    ["SELECT xmlparse(document '<a/>')", /XML syntax/],
    ['SELECT * FROM t TABLESAMPLE public.evil (10)', /TABLESAMPLE public\.evil/],
  ])('refuses %j', async (sql, message) => {
    const outcome = await check(sql).catch((e: Error) => e);
    expect(outcome).toBeInstanceOf(ReadOnlyViolation);
    expect((outcome as Error).message).toMatch(message);
  });

  test("a statement PostgreSQL's parser rejects is a syntax error, with the parser's message and position, never sent", async () => {
    const outcome = await check('SELECT T1.a FROM t AS T1 JOIN u AS T2 WHERE T1.a = 1').catch((e: Error) => e);
    expect(outcome).toBeInstanceOf(PostgresSyntaxError);
    expect(outcome).toMatchObject({ message: 'syntax error at or near "WHERE"', position: 39 });
  });

  test('a statement too deep for the parser is refused, and the parser keeps working', async () => {
    const deep = 'SELECT ' + Array.from({ length: 50_000 }, (_, i) => `a${i}`).join(' + ');
    await expect(check(deep)).rejects.toThrow(/nested too deeply to check/);
    await expect(check('SELECT 1')).resolves.toBeUndefined();
  });

  test('a wide statement (an IN list of 200,000 values) is walked whole, nothing spread on the stack', async () => {
    await expect(check(`SELECT 1 IN (${Array.from({ length: 200_000 }, (_, i) => i).join(', ')})`)).resolves.toBeUndefined();
    await expect(check(`SELECT 1 IN (${Array.from({ length: 200_000 }, (_, i) => i).join(', ')}, ts_stat('SELECT 1'))`)).rejects.toThrow(/ts_stat/);
  }, 60_000);

  test('every Spider gold query passes, or is a syntax error PostgreSQL reports too', async () => {
    const refused: string[] = [];
    for (const file of ['dev_gold.sql', 'train_gold.sql']) {
      for (const line of readFileSync(path.join(SPIDER_DIR, file), 'utf8').split('\n')) {
        const sql = line.split('\t')[0];
        if (!sql.trim()) continue;
        // Spider's columns are not functions: no field name here is a call.
        const outcome = await assertPostgresQuery(sql, new Set()).catch((e: Error) => e);
        if (outcome && !(outcome instanceof PostgresSyntaxError)) refused.push(`${sql}: ${outcome.message}`);
      }
    }
    expect(refused).toEqual([]);
  }, 120_000);
});
