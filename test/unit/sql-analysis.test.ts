import { createSqlAnalyzer, SQL_ANALYZER_FACTORIES } from '../../core/sql-analysis/create-sql-analyzer';
import type { SchemaHint, SqlAnalysis, SqlAnalysisSuccess, SqlAnalyzer } from '../../core/sql-analysis/sql-analyzer';

/**
 * Queries are gold SQL copied verbatim from Spider (dev/train) and BIRD dev unless marked
 * otherwise. Schema hints list the real columns of each table (DDL spelling), trimmed to the
 * columns these queries touch for the wide BIRD tables.
 */
const CONCERT_SINGER: SchemaHint = {
  tables: [
    { name: 'stadium', columns: ['Stadium_ID', 'Location', 'Name', 'Capacity', 'Highest', 'Lowest', 'Average'] },
    { name: 'concert', columns: ['concert_ID', 'concert_Name', 'Theme', 'Stadium_ID', 'Year'] },
  ],
};
const CHINOOK: SchemaHint = {
  tables: [
    { name: 'Customer', columns: ['CustomerId', 'FirstName', 'LastName', 'Company', 'City', 'Country', 'Email', 'SupportRepId'] },
    { name: 'Invoice', columns: ['InvoiceId', 'CustomerId', 'InvoiceDate', 'BillingCity', 'BillingCountry', 'Total'] },
    { name: 'Genre', columns: ['GenreId', 'Name'] },
    { name: 'Track', columns: ['TrackId', 'Name', 'AlbumId', 'MediaTypeId', 'GenreId', 'Composer', 'Milliseconds', 'Bytes', 'UnitPrice'] },
  ],
};
const CARD_GAMES: SchemaHint = {
  tables: [
    { name: 'cards', columns: ['id', 'artist', 'name', 'uuid', 'manaCost', 'setCode'] },
    { name: 'legalities', columns: ['id', 'format', 'status', 'uuid'] },
  ],
};
const FORMULA_1: SchemaHint = {
  tables: [
    { name: 'races', columns: ['raceId', 'year', 'round', 'circuitId', 'name', 'date', 'time', 'url'] },
    { name: 'results', columns: ['resultId', 'raceId', 'driverId', 'position', 'positionOrder', 'points', 'time', 'milliseconds'] },
  ],
};
const EUROPEAN_FOOTBALL: SchemaHint = {
  tables: [
    { name: 'Player', columns: ['id', 'player_api_id', 'player_name', 'player_fifa_api_id', 'birthday', 'height', 'weight'] },
    { name: 'Player_Attributes', columns: ['id', 'player_fifa_api_id', 'player_api_id', 'date', 'overall_rating', 'preferred_foot', 'finishing'] },
  ],
};

/** `table.column` per extracted column, sorted; `?` stands for an unresolved table. */
function columnsOf(result: SqlAnalysis): string[] {
  return ok(result)
    .columns.map((c) => `${c.table ?? '?'}.${c.column}`)
    .sort();
}

function ok(result: SqlAnalysis): SqlAnalysisSuccess {
  if (!result.ok) throw new Error(`expected a successful analysis, got: ${result.error.message}`);
  return result;
}

describe.each(Object.keys(SQL_ANALYZER_FACTORIES))('%s analyzer', (name) => {
  let analyzer: SqlAnalyzer;
  beforeAll(async () => {
    analyzer = await SQL_ANALYZER_FACTORIES[name]();
  });

  test('resolves T1/T2 aliases in both branches of an INTERSECT (Spider dev, concert_singer)', () => {
    const sql =
      'SELECT T2.name ,  T2.location FROM concert AS T1 JOIN stadium AS T2 ON T1.stadium_id  =  T2.stadium_id WHERE T1.Year  =  2014 INTERSECT SELECT T2.name ,  T2.location FROM concert AS T1 JOIN stadium AS T2 ON T1.stadium_id  =  T2.stadium_id WHERE T1.Year  =  2015';
    const result = analyzer.analyze(sql, 'sqlite', CONCERT_SINGER);
    expect(ok(result).tables).toEqual(['concert', 'stadium']);
    expect(columnsOf(result)).toEqual(['concert.Stadium_ID', 'concert.Year', 'stadium.Location', 'stadium.Name', 'stadium.Stadium_ID']);
    expect(ok(result).literals).toEqual([2014, 2015]);
  });

  test('EXCEPT with a join in the second branch; without a hint names keep their written case (Spider dev)', () => {
    const sql =
      'SELECT name FROM stadium EXCEPT SELECT T2.name FROM concert AS T1 JOIN stadium AS T2 ON T1.stadium_id  =  T2.stadium_id WHERE T1.year  =  2014';
    const result = analyzer.analyze(sql, 'sqlite');
    expect(ok(result).tables).toEqual(['stadium', 'concert']);
    expect(columnsOf(result)).toEqual(['concert.stadium_id', 'concert.year', 'stadium.name', 'stadium.stadium_id']);
  });

  test('columns of a NOT IN subquery belong to the subquery table (Spider dev)', () => {
    const result = analyzer.analyze('SELECT name FROM stadium WHERE stadium_id NOT IN (SELECT stadium_id FROM concert)', 'sqlite');
    expect(ok(result).tables).toEqual(['stadium', 'concert']);
    expect(columnsOf(result)).toEqual(['concert.stadium_id', 'stadium.name', 'stadium.stadium_id']);
  });

  test('a CTE is not a table; its columns and its alias MB resolve to the real table (BIRD dev, card_games)', () => {
    const sql =
      "WITH MaxBanned AS (SELECT format, COUNT(*) AS count_banned FROM legalities WHERE status = 'Banned' GROUP BY format ORDER BY COUNT(*) DESC LIMIT 1) SELECT T2.format, T1.name FROM cards AS T1 INNER JOIN legalities AS T2 ON T2.uuid = T1.uuid INNER JOIN MaxBanned MB ON MB.format = T2.format WHERE T2.status = 'Banned'";
    const result = analyzer.analyze(sql, 'sqlite', CARD_GAMES);
    expect(ok(result).tables).toEqual(['legalities', 'cards']);
    expect(columnsOf(result)).toEqual(['cards.name', 'cards.uuid', 'legalities.format', 'legalities.status', 'legalities.uuid']);
    expect(ok(result).literals).toEqual(['Banned', 1, 'Banned']);
  });

  test('columns read through a chain of CTEs trace back to base tables; computed outputs are not columns (BIRD dev, formula_1)', () => {
    const sql =
      'WITH time_in_seconds AS ( SELECT T2.year, T2.raceId, T1.positionOrder, CASE WHEN T1.positionOrder = 1 THEN (CAST(SUBSTR(T1.time, 1, 1) AS REAL) * 3600) + (CAST(SUBSTR(T1.time, 3, 2) AS REAL) * 60) + CAST(SUBSTR(T1.time, 6,2) AS REAL )   + CAST(SUBSTR(T1.time, 9) AS REAL)/1000 ELSE 0 END AS time_seconds FROM results AS T1 INNER JOIN races AS T2 ON T1.raceId = T2.raceId WHERE T1.time IS NOT NULL ), champion_time AS ( SELECT year, raceId, time_seconds FROM time_in_seconds WHERE positionOrder = 1 ) SELECT year, AVG(time_seconds) FROM champion_time WHERE year < 1975 GROUP BY year HAVING AVG(time_seconds) IS NOT NULL';
    const result = analyzer.analyze(sql, 'sqlite', FORMULA_1);
    expect(ok(result).tables).toEqual(['results', 'races']);
    expect(columnsOf(result)).toEqual(['races.raceId', 'races.year', 'results.positionOrder', 'results.raceId', 'results.time']);
    expect(ok(result).literals).toEqual([1, 1, 1, 3600, 3, 2, 60, 6, 2, 9, 1000, 0, 1, 1975]);
  });

  test('a derived UNION exposes only computed outputs, so A and result are not columns (BIRD dev, european_football_2)', () => {
    const sql =
      "SELECT A FROM ( SELECT AVG(finishing) result, 'Max' A FROM Player AS T1 INNER JOIN Player_Attributes AS T2 ON T1.player_api_id = T2.player_api_id WHERE T1.height = ( SELECT MAX(height) FROM Player ) UNION SELECT AVG(finishing) result, 'Min' A FROM Player AS T1 INNER JOIN Player_Attributes AS T2 ON T1.player_api_id = T2.player_api_id WHERE T1.height = ( SELECT MIN(height) FROM Player ) ) ORDER BY result DESC LIMIT 1";
    const result = analyzer.analyze(sql, 'sqlite', EUROPEAN_FOOTBALL);
    expect(ok(result).tables).toEqual(['Player', 'Player_Attributes']);
    expect(columnsOf(result)).toEqual(['Player.height', 'Player.player_api_id', 'Player_Attributes.finishing', 'Player_Attributes.player_api_id']);
    expect(ok(result).literals).toEqual(['Max', 'Min', 1]);
  });

  test('backtick identifiers with spaces and parentheses (BIRD dev, california_schools)', () => {
    const sql =
      "SELECT `Free Meal Count (K-12)` / `Enrollment (K-12)` FROM frpm WHERE `County Name` = 'Alameda' ORDER BY (CAST(`Free Meal Count (K-12)` AS REAL) / `Enrollment (K-12)`) DESC LIMIT 1";
    const result = analyzer.analyze(sql, 'sqlite');
    expect(ok(result).tables).toEqual(['frpm']);
    expect(columnsOf(result)).toEqual(['frpm.County Name', 'frpm.Enrollment (K-12)', 'frpm.Free Meal Count (K-12)']);
    expect(ok(result).literals).toEqual(['Alameda', 1]);
  });

  test('a double-quoted table name in FROM is a table (BIRD dev, european_football_2)', () => {
    const sql =
      "SELECT CAST(SUM(T1.away_team_goal) AS REAL) / COUNT(T1.id) FROM \"Match\" AS T1 INNER JOIN TEAM AS T2 ON T1.away_team_api_id = T2.team_api_id INNER JOIN Country AS T3 ON T1.country_id = T3.id WHERE T2.team_long_name = 'Parma' AND T3.name = 'Italy'";
    const result = analyzer.analyze(sql, 'sqlite');
    expect(ok(result).tables).toEqual(['Match', 'TEAM', 'Country']);
    expect(columnsOf(result)).toContain('Match.away_team_goal');
    expect(ok(result).literals).toEqual(['Parma', 'Italy']);
  });

  test('a double-quoted token that is no column is a string literal; the schema spelling wins (Spider train, chinook_1)', () => {
    const sql = 'SELECT max(Milliseconds) ,  min(Milliseconds) FROM GENRE AS T1 JOIN TRACK AS T2 ON T1.GenreId  =  T2.GenreId WHERE T1.Name  =  "Pop"';
    const result = analyzer.analyze(sql, 'sqlite', CHINOOK);
    expect(ok(result).tables).toEqual(['Genre', 'Track']);
    expect(columnsOf(result)).toEqual(['Genre.GenreId', 'Genre.Name', 'Track.GenreId', 'Track.Milliseconds']);
    expect(ok(result).literals).toEqual(['Pop']);
  });

  test('a double-quoted token naming a column is a column when the schema says so (adapted from the query above)', () => {
    const sql = 'SELECT "Name" FROM GENRE WHERE "Name"  =  "Pop"';
    const withHint = analyzer.analyze(sql, 'sqlite', CHINOOK);
    expect(columnsOf(withHint)).toEqual(['Genre.Name']);
    expect(ok(withHint).literals).toEqual(['Pop']);
    // Without a hint the gold-SQL convention (double quotes for strings) decides.
    const withoutHint = analyzer.analyze(sql, 'sqlite');
    expect(columnsOf(withoutHint)).toEqual([]);
    expect(ok(withoutHint).literals).toEqual(['Name', 'Name', 'Pop']);
  });

  test('an unqualified column in a join is resolved only with a schema hint (Spider train, chinook_1)', () => {
    const sql =
      'SELECT T2.InvoiceDate FROM CUSTOMER AS T1 JOIN INVOICE AS T2 ON T1.CustomerId  =  T2.CustomerId WHERE T1.FirstName  =  "Astrid" AND LastName  =  "Gruber"';
    expect(columnsOf(analyzer.analyze(sql, 'sqlite'))).toEqual([
      '?.LastName',
      'CUSTOMER.CustomerId',
      'CUSTOMER.FirstName',
      'INVOICE.CustomerId',
      'INVOICE.InvoiceDate',
    ]);
    const result = analyzer.analyze(sql, 'sqlite', CHINOOK);
    expect(columnsOf(result)).toEqual(['Customer.CustomerId', 'Customer.FirstName', 'Customer.LastName', 'Invoice.CustomerId', 'Invoice.InvoiceDate']);
    expect(ok(result).literals).toEqual(['Astrid', 'Gruber']);
  });

  test('ORDER BY a select-list alias is not a column (BIRD dev, debit_card_specializing)', () => {
    const sql =
      "SELECT SUM(T2.Consumption) / 12 AS MonthlyConsumption FROM customers AS T1 INNER JOIN yearmonth AS T2 ON T1.CustomerID = T2.CustomerID WHERE T1.Currency = 'EUR' GROUP BY T1.CustomerID ORDER BY MonthlyConsumption DESC LIMIT 1";
    const result = analyzer.analyze(sql, 'sqlite');
    expect(columnsOf(result)).toEqual(['customers.Currency', 'customers.CustomerID', 'yearmonth.Consumption', 'yearmonth.CustomerID']);
    expect(ok(result).literals).toEqual([12, 'EUR', 1]);
  });

  test('a correlated subquery reaches the outer alias (constructed on concert_singer)', () => {
    const sql = 'SELECT name FROM stadium AS S WHERE EXISTS (SELECT 1 FROM concert AS C WHERE C.stadium_id = S.stadium_id AND C.year = -2014)';
    const result = analyzer.analyze(sql, 'sqlite', CONCERT_SINGER);
    expect(columnsOf(result)).toEqual(['concert.Stadium_ID', 'concert.Year', 'stadium.Name', 'stadium.Stadium_ID']);
    expect(ok(result).literals).toEqual([1, -2014]);
  });

  test('star projections are recorded per table (constructed)', () => {
    const result = analyzer.analyze('SELECT T1.*, count(*) FROM concert AS T1 JOIN stadium AS T2 ON T1.stadium_id = T2.stadium_id', 'sqlite');
    expect(columnsOf(result)).toEqual(['concert.*', 'concert.stadium_id', 'stadium.stadium_id']);
    expect(columnsOf(analyzer.analyze('SELECT * FROM concert', 'sqlite'))).toEqual(['concert.*']);
  });

  test('a syntax error is reported with a position, not thrown', () => {
    const result = analyzer.analyze('SELECT T2.name FROM concert AS T1 JOIN stadium AS T2 ON T1.stadium_id  =  WHERE T1.year  =  2014', 'sqlite');
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.line).toBe(1);
    expect(result.error.column).toBe(result.error.offset! + 1);
    expect(result.error.message.length).toBeGreaterThan(0);
  });

  test('several statements, a non-query and empty input are errors', () => {
    expect(analyzer.analyze('SELECT name FROM stadium; SELECT name FROM concert', 'sqlite')).toEqual({
      ok: false,
      error: { message: 'expected one SQL statement, found 2' },
    });
    expect(analyzer.analyze('DELETE FROM stadium', 'sqlite').ok).toBe(false);
    expect(analyzer.analyze('', 'sqlite').ok).toBe(false);
  });

  test('MySQL: double quotes are always strings, backticks always names', () => {
    const result = analyzer.analyze(
      'SELECT `T1`.`Name` FROM `stadium` AS `T1` WHERE `T1`.`Location` = "Raith Rovers" AND Capacity > 1000',
      'mysql',
      CONCERT_SINGER,
    );
    expect(ok(result).tables).toEqual(['stadium']);
    expect(columnsOf(result)).toEqual(['stadium.Capacity', 'stadium.Location', 'stadium.Name']);
    expect(ok(result).literals).toEqual(['Raith Rovers', 1000]);
  });
});

describe('polyglot specifics', () => {
  let analyzer: SqlAnalyzer;
  beforeAll(async () => {
    analyzer = await SQL_ANALYZER_FACTORIES.polyglot();
  });

  test('is the chosen analyzer', async () => {
    expect((await createSqlAnalyzer()).name).toBe('polyglot');
  });

  test('`percent` as a bare alias parses in SQLite (BIRD dev, european_football_2)', () => {
    const sql =
      "SELECT CAST(COUNT(CASE WHEN t2.preferred_foot = 'left' THEN t1.id ELSE NULL END) AS REAL) * 100 / COUNT(t1.id) percent FROM Player AS t1 INNER JOIN Player_Attributes AS t2 ON t1.player_api_id = t2.player_api_id WHERE SUBSTR(t1.birthday, 1, 4) BETWEEN '1987' AND '1992'";
    const result = analyzer.analyze(sql, 'sqlite', EUROPEAN_FOOTBALL);
    expect(ok(result).tables).toEqual(['Player', 'Player_Attributes']);
    expect(columnsOf(result)).toEqual([
      'Player.birthday',
      'Player.id',
      'Player.player_api_id',
      'Player_Attributes.player_api_id',
      'Player_Attributes.preferred_foot',
    ]);
    expect(ok(result).literals).toEqual(['left', 100, 1, 4, '1987', '1992']);
  });

  test('error offset is the start of the offending token', () => {
    const sql = 'SELECT T2.name FROM concert AS T1 JOIN stadium AS T2 ON T1.stadium_id  =  WHERE T1.year  =  2014';
    expect(analyzer.analyze(sql, 'sqlite')).toEqual({
      ok: false,
      error: { message: 'Unexpected token: Where', line: 1, column: 75, offset: sql.indexOf('WHERE') },
    });
  });

  test('error offsets count UTF-16 units, as JavaScript strings do, after an emoji', () => {
    const sql = "SELECT name FROM stadium WHERE name = '😀' AND AND capacity > 1";
    const result = analyzer.analyze(sql, 'sqlite');
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.offset).toBe(sql.indexOf('capacity'));
  });

  test('an error on the second line has line and column there', () => {
    const result = analyzer.analyze('SELECT name\nFROM stadium WHERE', 'sqlite');
    expect(result).toEqual({ ok: false, error: { message: 'Unexpected token: Where', line: 2, column: 14, offset: 25 } });
  });
});

describe('node-sql-parser specifics', () => {
  let analyzer: SqlAnalyzer;
  beforeAll(async () => {
    analyzer = await SQL_ANALYZER_FACTORIES.node_sql_parser();
  });

  test('an error in the branch after EXCEPT points into the original SQL', () => {
    const branch = 'SELECT name FROM concert WHERE year = = 2014';
    const alone = analyzer.analyze(branch, 'sqlite');
    const inCompound = analyzer.analyze(`SELECT name FROM stadium EXCEPT ${branch}`, 'sqlite');
    if (alone.ok || inCompound.ok) throw new Error('expected both to fail');
    expect(alone.error.offset).toBe(branch.indexOf('= 2014'));
    expect(inCompound.error.offset).toBe(alone.error.offset! + 'SELECT name FROM stadium EXCEPT '.length);
  });

  test('a WITH before an EXCEPT is visible in both branches (constructed)', () => {
    const sql =
      'WITH big AS (SELECT stadium_id FROM stadium WHERE capacity > 5000) SELECT stadium_id FROM big EXCEPT SELECT stadium_id FROM concert WHERE stadium_id IN (SELECT stadium_id FROM big)';
    const result = analyzer.analyze(sql, 'sqlite');
    expect(ok(result).tables).toEqual(['stadium', 'concert']);
    expect(columnsOf(result)).toEqual(['concert.stadium_id', 'stadium.capacity', 'stadium.stadium_id']);
  });
});
