import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import mysql from 'mysql2/promise';
import { Client } from 'pg';
import { openTargetDatabase } from '../../activities/database/open-database';
import type { NamedRelation } from '../../activities/database/named-relations';
import type { TargetDatabase } from '../../activities/database/target-database';
import { createThrombosis } from '../../devkit/appendix-d-databases';
import { testMysqlUrl } from '../../devkit/mariadb';
import { describeWithPostgres } from '../support/postgres-tests';

/**
 * DecoSearch's materialized upstream result as decodex builds it: the executor, not the model's
 * SQL, makes rows available as a relation `n<k>` (a CTE over one bound JSON parameter), on every
 * engine, and nothing is created or written.
 */
const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');
const LIMITS = { timeoutMs: 10_000, maxRows: 1000 };

/** 150 patient ids (more than θ = 100), and a text column with quotes, backslashes and unicode. */
const ids: NamedRelation = {
  name: 'n3',
  columns: ['ID', "note's"],
  rows: Array.from({ length: 150 }, (_, i) => [i + 1, i === 0 ? `O'Brien \\ "x" ü` : `p${i + 1}`]),
};

async function exerciseRelations(db: TargetDatabase): Promise<void> {
  const bySex = await db.execute('SELECT p.SEX, COUNT(*) AS n FROM Patient p WHERE p.ID IN (SELECT ID FROM n3) GROUP BY p.SEX ORDER BY p.SEX', {
    ...LIMITS,
    relations: [ids],
  });
  expect(bySex.rows).toEqual([
    ['F', 75],
    ['M', 75],
  ]);
  // A query with its own WITH clause, joining the relation; values keep their type and text.
  const joined = await db.execute(
    "WITH m AS (SELECT ID FROM Patient WHERE SEX = 'M') SELECT n3.ID, n3.`note's` FROM n3 JOIN m ON m.ID = n3.ID ORDER BY n3.ID LIMIT 2".replaceAll(
      '`',
      db.dialect === 'mysql' ? '`' : '"',
    ),
    {
      ...LIMITS,
      relations: [ids],
    },
  );
  expect(joined.rows).toEqual([
    [1, `O'Brien \\ "x" ü`],
    [3, 'p3'],
  ]);
  // Two relations at once, one of them empty.
  const two = await db.execute('SELECT (SELECT COUNT(*) FROM n3) AS a, (SELECT COUNT(*) FROM n4) AS b', {
    ...LIMITS,
    relations: [ids, { name: 'n4', columns: ['x'], rows: [] }],
  });
  expect(two.rows).toEqual([[150, 0]]);
  // The model's SQL still may not create anything, relation or not.
  await expect(db.execute('CREATE TEMPORARY TABLE n5 AS SELECT * FROM n3', { ...LIMITS, relations: [ids] })).rejects.toThrow();
  // A relation name is decodex's: nothing else is accepted.
  await expect(db.execute('SELECT 1', { ...LIMITS, relations: [{ name: 'x; DROP TABLE Patient', columns: ['a'], rows: [] }] })).rejects.toThrow(
    /invalid relation name/,
  );
}

describe('named relations (materialized upstream results)', () => {
  it('on SQLite: queried like a table, the database file byte-identical, no new file', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'decodex-relations-'));
    const file = createThrombosis(dir, 200);
    const before = sha256(file);
    const db = await openTargetDatabase(file);
    try {
      await exerciseRelations(db);
    } finally {
      await db.close();
    }
    expect(sha256(file)).toBe(before);
    expect(readdirSync(dir)).toEqual(['thrombosis_prediction.sqlite']);
  });

  it('on MariaDB: through JSON_TABLE over a session variable, the data unchanged', async () => {
    const server = testMysqlUrl();
    const admin = await mysql.createConnection({ uri: server, multipleStatements: true });
    const name = `relations_${process.pid}`;
    try {
      await admin.query(`DROP DATABASE IF EXISTS ${name}; CREATE DATABASE ${name}; USE ${name};
        CREATE TABLE Patient (ID INT PRIMARY KEY, SEX VARCHAR(1));`);
      await admin.query(`INSERT INTO ${name}.Patient VALUES ${Array.from({ length: 200 }, (_, i) => `(${i + 1}, '${(i + 1) % 2 ? 'M' : 'F'}')`).join(', ')}`);
      const [before] = await admin.query(`CHECKSUM TABLE ${name}.Patient`);
      const url = new URL(server);
      url.pathname = `/${name}`;
      const db = await openTargetDatabase(url.toString());
      try {
        await exerciseRelations(db);
      } finally {
        await db.close();
      }
      const [after] = await admin.query(`CHECKSUM TABLE ${name}.Patient`);
      expect(after).toEqual(before);
      const [tables] = await admin.query<mysql.RowDataPacket[]>(`SHOW TABLES FROM ${name}`);
      expect(tables).toHaveLength(1);
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS ${name}`);
      await admin.end();
    }
  });
});

describeWithPostgres('named relations on PostgreSQL', (server) => {
  it('through json_to_recordset over one bound parameter, the data unchanged', async () => {
    const name = `relations_${process.pid}`;
    const admin = new Client({ connectionString: server().url });
    await admin.connect();
    const url = server().url.replace(/\/postgres$/, `/${name}`);
    try {
      await admin.query(`DROP DATABASE IF EXISTS ${name}`);
      await admin.query(`CREATE DATABASE ${name}`);
      const data = new Client({ connectionString: url });
      await data.connect();
      const checksum = async () => (await data.query("SELECT md5(string_agg(p::text, ',' ORDER BY p.id)) AS sum FROM patient p")).rows[0].sum;
      const tables = async () =>
        (await data.query("SELECT count(*)::int AS n FROM pg_class WHERE relkind = 'r' AND relnamespace = 'public'::regnamespace")).rows[0].n;
      try {
        await data.query('CREATE TABLE Patient (ID int PRIMARY KEY, SEX varchar(1))');
        await data.query(`INSERT INTO Patient SELECT i, CASE WHEN i % 2 = 1 THEN 'M' ELSE 'F' END FROM generate_series(1, 200) AS i`);
        const before = await checksum();
        const db = await openTargetDatabase(url, { postgres: { onAccountWarning: () => {} } });
        try {
          await exerciseRelations(db);
        } finally {
          await db.close();
        }
        expect(await checksum()).toBe(before);
        expect(await tables()).toBe(1);
      } finally {
        await data.end();
      }
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  });
});
