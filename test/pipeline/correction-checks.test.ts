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
    expect(unknown('no such column: T1.pettype')).toBe('there is no column pettype; the schema spells it Pets.PetType');
    expect(unknown("Unknown column 'T2.weigth' in 'field list'")).toBe('there is no column weigth; the schema spells it Pets.weight');
    expect(unknown('no such table: pet')).toBeUndefined(); // short names: no guessing
    expect(unknown('no such table: pets_table')).toBeUndefined();
    expect(unknown("Table 'shop.PETS' doesn't exist")).toBe('there is no table PETS; the schema spells it Pets');
    expect(unknown('no such column: colour')).toBeUndefined(); // nothing close
    expect(unknown('near "FROM": syntax error')).toBeUndefined();
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
