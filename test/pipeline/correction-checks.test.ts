import type { CheckInput } from '../../activities/correction/checks/check-input';
import { runChecks } from '../../activities/correction/checks';
import type { SchemaInfo } from '../../core/database/schema-types';
import type { SqlAnalysis } from '../../core/sql-analysis';

const schema: SchemaInfo = {
  dialect: 'sqlite',
  tables: [
    {
      name: 'singer',
      columns: ['Name', 'Country', 'Age'].map((name) => ({ name, type: 'TEXT', nullable: true, primaryKey: false })),
      primaryKey: [],
      foreignKeys: [],
    },
  ],
};
const parsed: SqlAnalysis = { ok: true, tables: ['singer'], columns: [], literals: [] };
const input = (over: Partial<CheckInput>): CheckInput => ({
  question: 'What are the names of singers from France?',
  sql: "SELECT Name FROM singer WHERE Country = 'France'",
  schema,
  analysis: parsed,
  analyze: () => parsed,
  execution: { ok: true, columns: ['Name'], rows: [['Ann']], truncated: false },
  ...over,
});
const checks = (over: Partial<CheckInput>) => runChecks(input(over)).map((f) => `${f.severity}:${f.check}`);

/** A table of TEXT columns, the first its key, with foreign keys as [column, table, column]. */
const table = (name: string, columns: string[], foreignKeys: [string, string, string][] = []) => ({
  name,
  columns: columns.map((c) => ({ name: c, type: 'TEXT', nullable: true, primaryKey: false })),
  primaryKey: [columns[0]],
  foreignKeys: foreignKeys.map(([from, toTable, to]) => ({ fromTable: name, fromColumns: [from], toTable, toColumns: [to] })),
});

describe('diagnostic checks (plain-code detectors, DexterSQL §3.4.1 Step 1)', () => {
  it('finds nothing in a query that runs and returns plausible rows', () => {
    expect(checks({})).toEqual([]);
  });

  it('reports execution errors and timeouts as errors, with the parser position when it failed too', () => {
    const failed = { ok: false as const, kind: 'sql_error', message: 'no such column: nme' };
    expect(checks({ execution: failed })).toEqual(['error:execution-error']);
    expect(checks({ execution: { ok: false, kind: 'timeout', message: 'stopped after 1000 ms' } })).toEqual(['error:timeout']);
    const unparsed: SqlAnalysis = { ok: false, error: { message: 'unexpected FROM', line: 1, column: 8 } };
    expect(runChecks(input({ execution: failed, analysis: unparsed })).map((f) => f.message)).toEqual([
      'no such column: nme',
      'unexpected FROM (line 1, column 8)',
    ]);
    // The database is the final judge: a query that runs is not reported for the parser's sake.
    expect(checks({ analysis: unparsed })).toEqual([]);
  });

  it("names the schema's spelling of a column or table the database does not know", () => {
    const pets: SchemaInfo = {
      dialect: 'sqlite',
      tables: [
        {
          name: 'Pets',
          columns: ['PetID', 'PetType', 'pet_age', 'weight'].map((name) => ({ name, type: 'TEXT', nullable: true, primaryKey: false })),
          primaryKey: [],
          foreignKeys: [],
        },
      ],
    };
    const unknown = (message: string) =>
      runChecks(input({ schema: pets, execution: { ok: false, kind: 'sql_error', message } })).find((f) => f.check === 'unknown-name')?.message;
    expect(unknown('no such column: pet_type')).toBe('there is no column pet_type; the schema spells it Pets.PetType');
    // Spelt the same but for case and underscores, and only one such column: plain code can rewrite it.
    const misspelt = runChecks(
      input({
        sql: "SELECT pet_type, 'pet_type' FROM Pets -- pet_type",
        schema: pets,
        execution: { ok: false, kind: 'sql_error', message: 'no such column: pet_type' },
      }),
    ).find((f) => f.check === 'unknown-name');
    expect(misspelt?.fix).toEqual({ sql: "SELECT PetType, 'pet_type' FROM Pets -- pet_type", description: 'pet_type → PetType' });
    const typo = runChecks(
      input({ sql: 'SELECT weigth FROM Pets', schema: pets, execution: { ok: false, kind: 'sql_error', message: 'no such column: weigth' } }),
    );
    expect(typo.find((f) => f.check === 'unknown-name')?.fix).toBeUndefined(); // a typo is a guess: the reviser is told, nothing is rewritten
    expect(unknown('no such column: T1.pet_Type')).toBe('there is no column pet_Type; the schema spells it Pets.PetType');
    expect(unknown("Unknown column 'T2.weigth' in 'field list'")).toBe('there is no column weigth; the schema spells it Pets.weight');
    expect(unknown('no such table: pet')).toBeUndefined(); // short names: no guessing
    expect(unknown('no such table: pets_table')).toBeUndefined();
    // MySQL's table names follow the file system's case (on Linux, case matters): PETS is a misspelling there.
    const onMysql = runChecks(
      input({ schema: { ...pets, dialect: 'mysql' }, execution: { ok: false, kind: 'sql_error', message: "Table 'shop.PETS' doesn't exist" } }),
    );
    expect(onMysql.find((f) => f.check === 'unknown-name')?.message).toBe('there is no table PETS; the schema spells it Pets');
    expect(unknown('no such table: PETS')).toBeUndefined();
    expect(unknown('no such column: colour')).toBeUndefined(); // nothing close
    // SQLite's names and MySQL's columns ignore case: PETTYPE is no misspelling of PetType but a column the
    // tables in scope lack (column-of-other-table's business), and respelling it would change nothing.
    expect(unknown('no such column: T1.PETTYPE')).toBeUndefined();
    expect(unknown("Unknown column 'WEIGHT' in 'field list'")).toBeUndefined();
    expect(unknown('near "FROM": syntax error')).toBeUndefined();
  });

  it("respells a column written with its table's name in front", () => {
    const poker: SchemaInfo = {
      dialect: 'sqlite',
      tables: [table('people', ['People_ID', 'Name', 'Height']), table('poker_player', ['Poker_Player_ID', 'People_ID', 'Earnings'])],
    };
    const finding = (sql: string, message: string, schema = poker) =>
      runChecks(input({ sql, schema, execution: { ok: false, kind: 'sql_error', message } })).find((f) => f.check === 'unknown-name');
    const sql = 'SELECT T1.People_Name FROM poker_player AS T1 JOIN people AS T2 ON T1.People_ID = T2.People_ID ORDER BY T1.people_name';
    const prefixed = finding(sql, 'no such column: T1.People_Name');
    expect(prefixed?.message).toBe("there is no column People_Name; the schema has people.Name (the table's name, then its column)");
    // Respelt everywhere; that T1 is poker_player is column-of-other-table's to fix next.
    expect(prefixed?.fix).toEqual({
      sql: 'SELECT T1.Name FROM poker_player AS T1 JOIN people AS T2 ON T1.People_ID = T2.People_ID ORDER BY T1.Name',
      description: 'People_Name → Name',
    });
    // A plural table read singular, run together: singers + Age.
    const singers: SchemaInfo = { dialect: 'sqlite', tables: [table('singers', ['Singer_ID', 'Age'])] };
    expect(finding('SELECT singerAge FROM singers', 'no such column: singerAge', singers)?.fix?.sql).toBe('SELECT Age FROM singers');
    // Two readings (people.Name, people_n.ame): told, not rewritten.
    const two: SchemaInfo = { dialect: 'sqlite', tables: [...poker.tables, table('people_n', ['ame'])] };
    expect(finding(sql, 'no such column: T1.People_Name', two)?.message).toContain('people.Name or people_n.ame');
    expect(finding(sql, 'no such column: T1.People_Name', two)?.fix).toBeUndefined();
    // Nothing reads so: no finding.
    expect(finding('SELECT T1.Player_Name FROM poker_player AS T1', 'no such column: T1.Player_Name')).toBeUndefined();
  });

  it('names the table a column belongs to when the query named it through another table', () => {
    const shops: SchemaInfo = {
      dialect: 'sqlite',
      tables: [table('shop', ['Shop_ID', 'Name', 'City']), table('hiring', ['Shop_ID', 'Employee_ID']), table('employee', ['Employee_ID', 'Name', 'City'])],
    };
    const finding = (sql: string, message: string) =>
      runChecks(input({ sql, schema: shops, execution: { ok: false, kind: 'sql_error', message } })).find((f) => f.check === 'column-of-other-table');

    const join = 'SELECT T2.Name FROM shop AS T1 JOIN hiring AS T2 ON T1.Shop_ID = T2.Shop_ID WHERE T2.name IS NOT NULL';
    const wrong = finding(join, 'no such column: T2.Name');
    expect(wrong?.message).toBe('T2 (hiring) has no column Name; shop (T1) of the query has it: qualify it with that table');
    // Every use of the wrong qualifier with that column is rewritten, in the query's own spelling.
    expect(wrong?.fix).toEqual({
      sql: 'SELECT T1.Name FROM shop AS T1 JOIN hiring AS T2 ON T1.Shop_ID = T2.Shop_ID WHERE T1.name IS NOT NULL',
      description: 'T2.Name → T1.Name',
    });
    // MySQL's wording, a table without an alias, a bare alias without AS.
    expect(finding('SELECT hiring.City FROM hiring JOIN shop s ON s.Shop_ID = hiring.Shop_ID', "Unknown column 'hiring.City' in 'field list'")?.fix?.sql).toBe(
      'SELECT s.City FROM hiring JOIN shop s ON s.Shop_ID = hiring.Shop_ID',
    );

    // Two tables of the query have it: which one is meant is the reviser's call.
    const three = 'SELECT T2.Name FROM shop AS T1 JOIN hiring AS T2 ON T1.Shop_ID = T2.Shop_ID JOIN employee AS T3 ON T3.Employee_ID = T2.Employee_ID';
    const two = finding(three, 'no such column: T2.Name');
    expect(two?.message).toBe('T2 (hiring) has no column Name; shop (T1) and employee (T3) of the query have it: qualify it with that table');
    expect(two?.fix).toBeUndefined();
    // Each branch of a compound query is its own scope: the branches that name it wrongly are rewritten.
    const branches =
      'SELECT T1.Name FROM shop AS T1 EXCEPT SELECT T2.Name FROM shop AS T1 JOIN hiring AS T2 ON T1.Shop_ID = T2.Shop_ID ' +
      'UNION SELECT T2.Name FROM employee AS T3 JOIN hiring AS T2 ON T3.Employee_ID = T2.Employee_ID';
    expect(finding(branches, 'no such column: T2.Name')?.fix).toEqual({
      sql:
        'SELECT T1.Name FROM shop AS T1 EXCEPT SELECT T1.Name FROM shop AS T1 JOIN hiring AS T2 ON T1.Shop_ID = T2.Shop_ID ' +
        'UNION SELECT T3.Name FROM employee AS T3 JOIN hiring AS T2 ON T3.Employee_ID = T2.Employee_ID',
      description: 'T2.Name → T1.Name, T3.Name',
    });
    // A subquery is its own SELECT: the aliases resolve as SQL resolves them. Here T2 is the outer hiring
    // wherever it is written, and T1 the outer shop, so every T2.Name is rewritten, the inner one too.
    const nested =
      'SELECT T2.Name FROM shop AS T1 JOIN hiring AS T2 ON T1.Shop_ID = T2.Shop_ID ' +
      'WHERE T1.Shop_ID IN (SELECT Shop_ID FROM hiring WHERE T2.Name IS NOT NULL)';
    expect(finding(nested, 'no such column: T2.Name')?.fix).toEqual({
      sql:
        'SELECT T1.Name FROM shop AS T1 JOIN hiring AS T2 ON T1.Shop_ID = T2.Shop_ID ' +
        'WHERE T1.Shop_ID IN (SELECT Shop_ID FROM hiring WHERE T1.Name IS NOT NULL)',
      description: 'T2.Name → T1.Name',
    });
    // The alias bound inside the subquery is rewritten with the subquery's own table.
    const inner =
      "SELECT Name FROM shop WHERE Shop_ID IN (SELECT T2.Shop_ID FROM hiring AS T2 JOIN employee AS T3 ON T2.Employee_ID = T3.Employee_ID WHERE T2.City = 'x')";
    expect(finding(inner, 'no such column: T2.City')?.fix?.sql).toBe(inner.replace('T2.City', 'T3.City'));
    // Where the column is written, an inner SELECT reuses the owner's alias for another table: not sure, only told.
    const shadowed =
      'SELECT T1.City FROM shop AS T1 JOIN hiring AS T2 ON T1.Shop_ID = T2.Shop_ID ' +
      'WHERE T2.Employee_ID IN (SELECT T1.Employee_ID FROM employee AS T1 WHERE T2.Name = T1.Name)';
    const told = finding(shadowed, 'no such column: T2.Name');
    expect(told?.message).toBe('T2 (hiring) has no column Name; shop (T1) of the query has it: qualify it with that table');
    expect(told?.fix).toBeUndefined();
    // The alias bound twice in one SELECT: which table it means is not plain code's call.
    expect(finding('SELECT T2.Name FROM shop AS T2 JOIN hiring AS T2 ON T2.Shop_ID = T2.Shop_ID', 'no such column: T2.Name')?.fix).toBeUndefined();
    // A qualifier that names no table of the query: an alias never given, a table name under its alias.
    const unbound = finding('SELECT T2.City FROM shop AS T1 JOIN hiring AS T3 ON T1.Shop_ID = T3.Shop_ID', 'no such column: T2.City');
    expect(unbound?.message).toBe('the query reads no table named or aliased T2 to read City from; shop (T1) of the query has it: qualify it with that table');
    expect(unbound?.fix?.sql).toBe('SELECT T1.City FROM shop AS T1 JOIN hiring AS T3 ON T1.Shop_ID = T3.Shop_ID');
    const underAlias = finding('SELECT shop.Name FROM shop AS s JOIN hiring AS h ON s.Shop_ID = h.Shop_ID', 'no such column: shop.Name');
    expect(underAlias?.message).toMatch(/^shop is aliased s in the query, so shop\.Name names nothing/);
    expect(underAlias?.fix?.sql).toBe('SELECT s.Name FROM shop AS s JOIN hiring AS h ON s.Shop_ID = h.Shop_ID');
    // Unbound, and two tables of the query have it; or bound in another branch only: told, not rewritten.
    expect(finding('SELECT T9.Name FROM shop AS T1 JOIN employee AS T3 ON T1.City = T3.City', 'no such column: T9.Name')?.fix).toBeUndefined();
    expect(finding('SELECT T2.Name FROM shop AS T1 UNION SELECT T2.Name FROM hiring AS T2', 'no such column: T2.Name')?.fix).toBeUndefined();
    // The column is in a table the query does not read.
    expect(finding('SELECT T1.City FROM hiring AS T1', 'no such column: T1.City')?.message).toBe(
      'T1 (hiring) has no column City; shop and employee have it, and the query does not read them: join the table that holds it',
    );
    // Unqualified, in no table the query reads: which tables have it (never a rewrite).
    const bare = finding('SELECT City FROM hiring WHERE Shop_ID = 1', 'no such column: City');
    expect(bare?.message).toBe(
      'no table the query reads (hiring) has a column City; shop and employee have it, and the query does not read them: join the table that holds it',
    );
    expect(bare?.fix).toBeUndefined();
    expect(finding('SELECT City FROM shop JOIN hiring USING (Shop_ID)', 'no such column: City')).toBeUndefined(); // a table it reads has it
    // Not this check's: a misspelt column, a column no table has, a query that runs.
    expect(finding(join, 'no such column: T2.Nmae')).toBeUndefined();
    expect(finding(join, 'no such column: T2.Colour')).toBeUndefined();
    expect(runChecks(input({ sql: join, schema: shops })).some((f) => f.check === 'column-of-other-table')).toBe(false);
  });

  it('joins the table a foreign key leads to when only that table has the column', () => {
    const kennels: SchemaInfo = {
      dialect: 'sqlite',
      tables: [
        table('Owners', ['owner_id', 'first_name']),
        table('Sizes', ['size_code', 'size_description']),
        table(
          'Dogs',
          ['dog_id', 'owner_id', 'size_code', 'dog_name'],
          [
            ['owner_id', 'Owners', 'owner_id'],
            ['size_code', 'Sizes', 'size_code'],
          ],
        ),
      ],
    };
    const finding = (sql: string, message: string, schema = kennels) =>
      runChecks(input({ sql, schema, execution: { ok: false, kind: 'sql_error', message } })).find((f) => f.check === 'column-of-other-table');

    const owners = "SELECT T1.first_name, T2.size_description FROM Owners AS T1 JOIN Dogs AS T2 ON T1.owner_id = T2.owner_id WHERE T2.size_description <> 'x'";
    const joined = finding(owners, 'no such column: T2.size_description');
    expect(joined?.message).toBe('T2 (Dogs) has no column size_description; Sizes has it, and the query does not read it: join the table that holds it');
    expect(joined?.fix).toEqual({
      sql:
        'SELECT T1.first_name, T3.size_description FROM Owners AS T1 JOIN Dogs AS T2 ON T1.owner_id = T2.owner_id ' +
        "JOIN Sizes AS T3 ON T2.size_code = T3.size_code WHERE T3.size_description <> 'x'",
      description: 'T2.size_description → T3.size_description, JOIN Sizes AS T3 ON T2.size_code = T3.size_code',
    });
    // A table without an alias, the join at the end of the query; on PostgreSQL a mixed-case name is quoted.
    expect(finding('SELECT Dogs.size_description FROM Dogs', 'no such column: Dogs.size_description')?.fix?.sql).toBe(
      'SELECT T1.size_description FROM Dogs JOIN Sizes AS T1 ON Dogs.size_code = T1.size_code',
    );
    expect(finding('SELECT d.size_description FROM dogs d;', 'column d.size_description does not exist', { ...kennels, dialect: 'postgres' })?.fix?.sql).toBe(
      'SELECT T1.size_description FROM dogs d JOIN "Sizes" AS T1 ON d.size_code = T1.size_code;',
    );
    // A table named by a keyword is quoted.
    const ordered = {
      ...kennels,
      tables: [...kennels.tables, table('Order', ['order_id', 'note']), table('Lines', ['line_id', 'order_id'], [['order_id', 'Order', 'order_id']])],
    };
    expect(finding('SELECT L.note FROM Lines AS L', 'no such column: L.note', ordered)?.fix?.sql).toBe(
      'SELECT T1.note FROM Lines AS L JOIN "Order" AS T1 ON L.order_id = T1.order_id',
    );
    // The key leads the other way (one owner, many dogs): joining would repeat owners. Told, not rewritten.
    const reverse = finding('SELECT T1.dog_name FROM Owners AS T1', 'no such column: T1.dog_name');
    expect(reverse?.message).toContain('Dogs has it');
    expect(reverse?.fix).toBeUndefined();
    // A comma list of tables: an appended JOIN's ON clause could not see them on MySQL.
    expect(
      finding('SELECT T2.size_description FROM Owners AS T1, Dogs AS T2 WHERE T1.owner_id = T2.owner_id', 'no such column: T2.size_description')?.fix,
    ).toBeUndefined();
    // Two tables have the column: which one is meant is the reviser's call.
    const twice = { ...kennels, tables: [...kennels.tables, table('Breeds', ['breed_code', 'size_description'])] };
    expect(finding(owners, 'no such column: T2.size_description', twice)?.fix).toBeUndefined();
  });

  it('warns about empty results, all-NULL columns and a count where a list was asked', () => {
    expect(checks({ execution: { ok: true, columns: ['Name'], rows: [], truncated: false } })).toEqual(['warning:empty-result']);
    expect(
      checks({
        execution: {
          ok: true,
          columns: ['Name', 'Age'],
          rows: [
            [null, 3],
            [null, 4],
          ],
          truncated: false,
        },
      }),
    ).toEqual(['warning:all-null-column']);
    const count = {
      sql: "SELECT count(*) FROM singer WHERE Country = 'France'",
      execution: { ok: true as const, columns: ['count(*)'], rows: [[2]], truncated: false },
    };
    expect(checks({ ...count, question: 'List the singers from France.' })).toEqual(['warning:count-for-list']);
    expect(checks({ ...count, question: 'How many singers are from France?' })).toEqual([]);
  });

  it('warns when SQLite would read a double-quoted misspelt column as a string', () => {
    expect(checks({ sql: 'SELECT Name FROM singer WHERE "Contry" = \'France\'' })).toEqual(['warning:double-quoted-string']);
    expect(checks({ sql: 'SELECT "Name" FROM "singer" WHERE Country = \'say "hi"\'' })).toEqual([]);
  });
});
