import { readFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { encodeSqlValue, sqlValueKey, type SqlValue } from '../../core/sql-value';
import { SqliteDatabase } from '../../activities/database/sqlite-database';
import { SqliteProcessPool } from '../../activities/database/sqlite-process-pool';
import type { SchemaInfo } from '../../core/database/schema-types';
import { SPIDER_DIR, spiderDbPath } from './spider-files';

const pool = new SqliteProcessPool({ size: 2 });
afterAll(() => pool.close());

function open(name: string): SqliteDatabase {
  return new SqliteDatabase(spiderDbPath(name), { pool });
}

/** Plain better-sqlite3, in this process: the independent side of each comparison. */
function direct(name: string) {
  const db = new Database(spiderDbPath(name), { readonly: true });
  db.defaultSafeIntegers(true);
  return {
    value: (sql: string): SqlValue => {
      const row = db.prepare(sql).raw(true).get() as unknown[] | undefined;
      return row === undefined ? null : encodeSqlValue(row[0]);
    },
    column: (sql: string): SqlValue[] => (db.prepare(sql).raw(true).all() as unknown[][]).map((r) => encodeSqlValue(r[0])),
    close: () => db.close(),
  };
}

const q = (name: string) => `"${name.replace(/"/g, '""')}"`;

test('concert_singer: tables, declared types, composite primary key and foreign keys, in declaration order', async () => {
  const schema = await open('concert_singer').schema();
  expect(schema.dialect).toBe('sqlite');
  expect(schema.tables.map((t) => t.name)).toEqual(['stadium', 'singer', 'concert', 'singer_in_concert']);
  const stadium = schema.tables[0];
  // Declared `int` / `text`: SQLite reports its standard type names (INT, TEXT, ...) in upper case.
  expect(stadium.columns.map((c) => [c.name, c.type])).toEqual([
    ['Stadium_ID', 'INT'],
    ['Location', 'TEXT'],
    ['Name', 'TEXT'],
    ['Capacity', 'INT'],
    ['Highest', 'INT'],
    ['Lowest', 'INT'],
    ['Average', 'INT'],
  ]);
  expect(stadium.columns[0]).toMatchObject({ primaryKey: true, nullable: false });
  expect(stadium.columns[1]).toMatchObject({ primaryKey: false, nullable: true });
  expect(schema.tables.map((t) => t.primaryKey)).toEqual([['Stadium_ID'], ['Singer_ID'], ['concert_ID'], ['concert_ID', 'Singer_ID']]);
  expect(schema.tables[2].foreignKeys).toEqual([{ fromTable: 'concert', fromColumns: ['Stadium_ID'], toTable: 'stadium', toColumns: ['Stadium_ID'] }]);
  expect(schema.tables[3].foreignKeys).toEqual([
    { fromTable: 'singer_in_concert', fromColumns: ['concert_ID'], toTable: 'concert', toColumns: ['concert_ID'] },
    { fromTable: 'singer_in_concert', fromColumns: ['Singer_ID'], toTable: 'singer', toColumns: ['Singer_ID'] },
  ]);
});

test('pets_1 and car_1: INTEGER PRIMARY KEY, keys to non-key columns', async () => {
  const pets = await open('pets_1').schema();
  expect(pets.tables.map((t) => [t.name, t.primaryKey])).toEqual([
    ['Student', ['StuID']],
    ['Has_Pet', []],
    ['Pets', ['PetID']],
  ]);
  expect(pets.tables[1].foreignKeys.map((f) => `${f.fromColumns}->${f.toTable}.${f.toColumns}`)).toEqual(['PetID->Pets.PetID', 'StuID->Student.StuID']);
  expect(pets.tables[0].columns.find((c) => c.name === 'LName')!.type).toBe('VARCHAR(12)');

  const cars = await open('car_1').schema();
  const carNames = cars.tables.find((t) => t.name === 'car_names')!;
  expect(carNames.foreignKeys).toEqual([{ fromTable: 'car_names', fromColumns: ['Model'], toTable: 'model_list', toColumns: ['Model'] }]);
});

/** Spider's own metadata (tables.json) as a second, independent description of the files. */
function spiderMetadata(db: string) {
  const all = JSON.parse(readFileSync(`${SPIDER_DIR}/tables.json`, 'utf8')) as {
    db_id: string;
    table_names_original: string[];
    column_names_original: [number, string][];
    primary_keys: number[];
    foreign_keys: [number, number][];
  }[];
  const meta = all.find((d) => d.db_id === db)!;
  const columnName = (i: number) => {
    const [table, column] = meta.column_names_original[i];
    return `${meta.table_names_original[table]}.${column}`.toLowerCase();
  };
  return {
    tables: meta.table_names_original,
    columns: meta.table_names_original.map((_, t) => meta.column_names_original.filter(([ti]) => ti === t).map(([, c]) => c)),
    primaryKeyColumns: meta.primary_keys.map(columnName),
    foreignKeys: meta.foreign_keys.map(([from, to]) => `${columnName(from)}->${columnName(to)}`).sort(),
  };
}

function foreignKeyPairs(schema: SchemaInfo): string[] {
  return schema.tables
    .flatMap((t) => t.foreignKeys.flatMap((f) => f.fromColumns.map((c, i) => `${f.fromTable}.${c}->${f.toTable}.${f.toColumns[i]}`.toLowerCase())))
    .sort();
}

test.each(['concert_singer', 'pets_1', 'car_1', 'employee_hire_evaluation'])('%s agrees with Spider tables.json', async (name) => {
  const schema = await open(name).schema();
  const meta = spiderMetadata(name);
  expect(schema.tables.map((t) => t.name.toLowerCase())).toEqual(meta.tables.map((t) => t.toLowerCase()));
  expect(schema.tables.map((t) => t.columns.map((c) => c.name))).toEqual(meta.columns);
  const ours = schema.tables.flatMap((t) => t.primaryKey.map((c) => `${t.name}.${c}`.toLowerCase()));
  // tables.json lists one column of a composite key; every column it lists must be a key column here.
  for (const pk of meta.primaryKeyColumns) expect(ours).toContain(pk);
  expect(foreignKeyPairs(schema)).toEqual(meta.foreignKeys);
});

test('a foreign key that names a missing column falls back to the primary key (imdb tags.kid)', async () => {
  const schema = await open('imdb').schema();
  const tags = schema.tables.find((t) => t.name === 'tags')!;
  const keyword = schema.tables.find((t) => t.name === 'keyword')!;
  expect(tags.foreignKeys).toContainEqual({ fromTable: 'tags', fromColumns: ['kid'], toTable: 'keyword', toColumns: keyword.primaryKey });
});

describe.each(['concert_singer', 'pets_1', 'car_1'])('%s statistics match plain SQL', (name) => {
  test('row counts and column statistics', async () => {
    const db = open(name);
    const plain = direct(name);
    try {
      for (const table of (await db.schema()).tables) {
        const t = q(table.name);
        expect(await db.rowCount(table.name)).toBe(plain.value(`SELECT count(*) FROM ${t}`));
        for (const column of table.columns) {
          const c = q(column.name);
          const stats = await db.columnStats(table.name, column.name);
          expect(stats).toEqual({
            rowCount: plain.value(`SELECT count(*) FROM ${t}`),
            nullCount: plain.value(`SELECT count(*) FROM ${t} WHERE ${c} IS NULL`),
            distinctCount: plain.value(`SELECT count(*) FROM (SELECT DISTINCT ${c} FROM ${t} WHERE ${c} IS NOT NULL)`),
            min: plain.value(`SELECT ${c} FROM ${t} WHERE ${c} IS NOT NULL ORDER BY ${c} ASC LIMIT 1`),
            max: plain.value(`SELECT ${c} FROM ${t} WHERE ${c} IS NOT NULL ORDER BY ${c} DESC LIMIT 1`),
          });
        }
      }
    } finally {
      plain.close();
    }
  });

  test('most frequent values and samples, checked against the column counted in JavaScript', async () => {
    const db = open(name);
    const plain = direct(name);
    try {
      for (const table of (await db.schema()).tables) {
        for (const column of table.columns) {
          const values = plain.column(`SELECT ${q(column.name)} FROM ${q(table.name)}`).filter((v) => v !== null);
          const counts = new Map<string, number>();
          for (const v of values) counts.set(sqlValueKey(v), (counts.get(sqlValueKey(v)) ?? 0) + 1);

          const top = await db.mostFrequentValues(table.name, column.name, 3);
          expect(top.length).toBe(Math.min(3, counts.size));
          for (const { value, count } of top) expect(counts.get(sqlValueKey(value))).toBe(count);
          const sortedCounts = [...counts.values()].sort((a, b) => b - a);
          expect(top.map((v) => v.count)).toEqual(sortedCounts.slice(0, 3));

          const sample = await db.sampleValues(table.name, column.name, 5);
          expect(sample.length).toBe(Math.min(5, counts.size));
          expect(new Set(sample.map(sqlValueKey)).size).toBe(sample.length);
          for (const v of sample) expect(counts.has(sqlValueKey(v))).toBe(true);
        }
      }
    } finally {
      plain.close();
    }
  });
});
