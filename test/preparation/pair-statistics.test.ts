import Database from 'better-sqlite3';
import path from 'node:path';
import { DatabaseRegistry } from '../../activities/database/database-registry';
import { PairStatistics } from '../../activities/exploration/pair-statistics';
import { openTargetDatabase } from '../../activities/database/open-database';
import { ARTIFACT_KINDS, artifactKeys } from '../../activities/prepared/preparation-artifacts';
import { createPreparationActivities } from '../../activities/preparation/preparation-activities';
import type { PairEvidence } from '../../core/exploration/pair-types';
import { resolvePreparationLimits } from '../../core/preparation/preparation-config';
import { spiderDatabasePath } from '../../devkit/datasets';
import { createRunningExampleDatabase, RUNNING_EXAMPLE } from '../support/running-example-database';
import { startPreparationHarness, type PreparationHarness } from '../../devkit/preparation-harness';

/**
 * Deep investigation (DexterSQL §3.1.3 Step 3) against statistics computed here, independently:
 * value sets and joins are read with plain better-sqlite3 and counted in JavaScript, not with
 * the SQL decodex generates.
 */
interface KnownPair {
  db: string;
  /** The key side Ti: table, its key X, its ambiguous column. */
  keySide: { table: string; key: string; column: string };
  /** Tj: table, the foreign key referencing X, its ambiguous column. */
  otherSide: { table: string; foreignKey: string; column: string };
}

/** Same-named columns of two tables joined by a declared foreign key, in real Spider databases. */
const SPIDER_PAIRS: KnownPair[] = [
  {
    db: 'chinook_1',
    keySide: { table: 'Employee', key: 'EmployeeId', column: 'Country' },
    otherSide: { table: 'Customer', foreignKey: 'SupportRepId', column: 'Country' },
  },
  { db: 'world_1', keySide: { table: 'country', key: 'Code', column: 'Name' }, otherSide: { table: 'city', foreignKey: 'CountryCode', column: 'Name' } },
  {
    db: 'insurance_policies',
    keySide: { table: 'Claims', key: 'Claim_ID', column: 'Date_Claim_Settled' },
    otherSide: { table: 'Settlements', foreignKey: 'Claim_ID', column: 'Date_Claim_Settled' },
  },
  { db: 'csu_1', keySide: { table: 'Campuses', key: 'Id', column: 'Year' }, otherSide: { table: 'faculty', foreignKey: 'Campus', column: 'Year' } },
];

type Row = Record<string, unknown>;

/** Coverage, fan-out, agreement and overlap by the paper's definitions, computed in JavaScript. */
function independentStatistics(file: string, pair: KnownPair) {
  const db = new Database(file, { readonly: true });
  try {
    const keyRows = db.prepare(`SELECT * FROM "${pair.keySide.table}"`).all() as Row[];
    const otherRows = db.prepare(`SELECT * FROM "${pair.otherSide.table}"`).all() as Row[];
    const byForeignKey = new Map<unknown, Row[]>();
    for (const row of otherRows) {
      const k = row[pair.otherSide.foreignKey];
      if (k === null) continue;
      byForeignKey.set(k, [...(byForeignKey.get(k) ?? []), row]);
    }
    let joined = 0;
    let agreeing = 0;
    const participating = new Set<unknown>();
    for (const row of keyRows) {
      for (const match of byForeignKey.get(row[pair.keySide.key]) ?? []) {
        joined++;
        participating.add(row[pair.keySide.key]);
        const [a, b] = [row[pair.keySide.column], match[pair.otherSide.column]];
        if (a !== null && a === b) agreeing++;
      }
    }
    const keys = new Set(keyRows.map((r) => r[pair.keySide.key]));
    const values = (rows: Row[], column: string) => new Set(rows.map((r) => r[column]).filter((v) => v !== null));
    const [va, vb] = [values(keyRows, pair.keySide.column), values(otherRows, pair.otherSide.column)];
    const shared = [...va].filter((v) => vb.has(v)).length;
    return {
      coverage: participating.size / keys.size,
      fanout: joined / participating.size,
      agreement: agreeing / joined,
      jaccard: shared / (va.size + vb.size - shared),
      joined,
    };
  } finally {
    db.close();
  }
}

describe('deep investigation statistics (§3.1.3 Step 3)', () => {
  let harness: PreparationHarness;

  beforeAll(() => {
    harness = startPreparationHarness();
  });
  afterAll(() => harness.close());

  const measure = async (database: string, pairId: string): Promise<PairEvidence> => (await harness.measure(database, pairId)).evidence;

  it("finds the paper's running example pair and measures what Tables 2 and 3 imply", async () => {
    const database = createRunningExampleDatabase(harness.dir);
    const { candidates } = await harness.explore(database);
    const ids = candidates.map((c) => c.id);
    expect(ids).toContain('Examination.Diagnosis~Patient.Diagnosis');
    expect(candidates.find((c) => c.id === 'Examination.Diagnosis~Patient.Diagnosis')!.reasons).toContain('same_name');
    // Examination.ID → Patient.ID is a declared key pair: structurally obvious, never a candidate.
    expect(ids.some((id) => id.includes('.ID'))).toBe(false);

    const evidence = await measure(database, 'Examination.Diagnosis~Patient.Diagnosis');
    const { expected } = RUNNING_EXAMPLE;
    expect(evidence.join).not.toBeNull();
    expect(evidence.join!.from).toEqual({ table: 'Patient', column: 'Diagnosis' });
    expect(evidence.join!.pathText).toBe('Patient.ID = Examination.ID');
    expect(evidence.join!.coverage).toBeCloseTo(expected.coverage, 6);
    expect(evidence.join!.fanout).toBeCloseTo(expected.fanout, 6);
    expect(evidence.join!.agreement).toBeCloseTo(expected.agreement, 6);
    expect(evidence.join).toMatchObject({ keysInTable: 2, keysJoined: 2, joinedRows: 3, agreeingRows: 1 });
    expect(evidence.overlap).toEqual({ distinctA: 2, distinctB: 2, intersection: 2, union: 2, jaccard: expected.jaccard });
    expect(evidence.problems).toEqual([]);
  });

  it('measures the pairs over one join in one pass over it, each as it would be measured alone', async () => {
    const database = spiderDatabasePath('chinook_1');
    const { inspection, candidates } = await harness.explore(database);
    const { databaseId, versions } = inspection;
    // Employee and Customer share City, State, Country, Phone, ...: several pairs, one join.
    const pairs = candidates.filter((c) => [c.a.table, c.b.table].sort().join() === 'Customer,Employee');
    expect(pairs.length).toBeGreaterThanOrEqual(3);
    const { queryTimeoutMs } = resolvePreparationLimits();
    const input = { database, databaseId, versions, config: harness.config.exploration, queryTimeoutMs };
    const alone: PairEvidence[] = [];
    for (const pair of pairs) alone.push(...(await harness.activities.measurePairStatistics({ ...input, pairs: [pair] })));
    for (const pair of pairs) await harness.store.delete(ARTIFACT_KINDS.pairEvidence, artifactKeys.pairEvidence(databaseId, versions, pair.id));

    // The same activities on a database that counts the joins it is asked to run.
    const joins: string[] = [];
    const counting = new DatabaseRegistry(async (spec) => {
      const db = await openTargetDatabase(spec);
      const execute = db.execute.bind(db);
      db.execute = (sql, options) => {
        if (/\bJOIN\b/.test(sql)) joins.push(sql);
        return execute(sql, options);
      };
      return db;
    });
    try {
      const activities = createPreparationActivities({ databases: counting, store: harness.store, embedders: harness.embedders, vectors: harness.vectors });
      expect(await activities.measurePairStatistics({ ...input, pairs })).toEqual(alone);
      expect(joins).toHaveLength(1);
      // Stored as measured: a retry of the batch asks the database nothing.
      await activities.measurePairStatistics({ ...input, pairs });
      expect(joins).toHaveLength(1);
    } finally {
      await counting.closeAll();
    }
  });

  it('counts a many-to-many path through a hub exactly as the join would: NOCASE keys, NULL keys and values, case variants', async () => {
    const file = path.join(harness.dir, 'hub.sqlite');
    const setup = new Database(file);
    setup.exec(`
      CREATE TABLE hub (code TEXT COLLATE NOCASE PRIMARY KEY, name TEXT);
      CREATE TABLE a (id INTEGER PRIMARY KEY, code TEXT COLLATE NOCASE REFERENCES hub (code), label TEXT);
      CREATE TABLE b (id INTEGER PRIMARY KEY, code TEXT REFERENCES hub (code), label TEXT);
      INSERT INTO hub VALUES ('x', 'X'), ('Y', 'Y'), ('z', 'Z');
      INSERT INTO a (code, label) VALUES ('x', 'red'), ('X', 'Red'), ('x', 'blue'), ('y', 'red'), ('Y', NULL), (NULL, 'red'), ('z', 'green');
      INSERT INTO b (code, label) VALUES ('x', 'red'), ('x', 'RED'), ('X', 'blue'), ('Y', 'red'), ('y', 'red'), (NULL, 'red'), ('x', NULL);
    `);
    // The definition, as one plain join.
    const truth = setup
      .prepare(
        `SELECT COUNT(*) AS joined, COUNT(CASE WHEN a.label COLLATE BINARY = b.label COLLATE BINARY THEN 1 END) AS agreeing,
           COUNT(CASE WHEN LOWER(a.label) COLLATE BINARY = LOWER(b.label) COLLATE BINARY THEN 1 END) AS agreeingIgnoringCase,
           COUNT(DISTINCT a.code) AS keys
         FROM a JOIN hub ON a.code = hub.code JOIN b ON hub.code = b.code`,
      )
      .get() as { joined: number; agreeing: number; agreeingIgnoringCase: number; keys: number };
    const keysInTable = (setup.prepare('SELECT COUNT(DISTINCT code) AS n FROM a').get() as { n: number }).n;
    setup.close();
    expect(truth.joined).toBeGreaterThan(10); // many to many: more joined rows than rows in a or b

    const db = await openTargetDatabase(file);
    try {
      const hubPath = [
        { left: 'a', leftColumns: ['code'], right: 'hub', rightColumns: ['code'], leftIsReferenced: false },
        { left: 'hub', leftColumns: ['code'], right: 'b', rightColumns: ['code'], leftIsReferenced: true },
      ];
      const [stats] = await new PairStatistics(db, 10_000).join(hubPath, [
        { from: { table: 'a', column: 'label' }, to: { table: 'b', column: 'label' }, textual: true },
      ]);
      expect(stats).toMatchObject({ joinedRows: truth.joined, agreeingRows: truth.agreeing, keysJoined: truth.keys, keysInTable });
      expect(stats.agreementCaseInsensitive).toBeCloseTo(truth.agreeingIgnoringCase / truth.joined, 6);
    } finally {
      await db.close();
    }
  });

  const label = (p: KnownPair) => `${p.db}: ${p.keySide.table}.${p.keySide.column} / ${p.otherSide.table}.${p.otherSide.column}`;
  it.each(SPIDER_PAIRS.map((p) => [label(p), p] as const))('matches independently computed statistics on %s', async (_label, pair) => {
    const database = spiderDatabasePath(pair.db);
    const [a, b] = [`${pair.keySide.table}.${pair.keySide.column}`, `${pair.otherSide.table}.${pair.otherSide.column}`].sort((x, y) =>
      x.toLowerCase().localeCompare(y.toLowerCase()),
    );
    const evidence = await measure(database, `${a}~${b}`);
    const truth = independentStatistics(database, pair);

    expect(evidence.join).not.toBeNull();
    expect(evidence.join!.from).toEqual({ table: pair.keySide.table, column: pair.keySide.column });
    expect(evidence.join!.pathText).toBe(`${pair.keySide.table}.${pair.keySide.key} = ${pair.otherSide.table}.${pair.otherSide.foreignKey}`);
    expect(evidence.join!.joinedRows).toBe(truth.joined);
    expect(evidence.join!.coverage).toBeCloseTo(truth.coverage, 6);
    expect(evidence.join!.fanout).toBeCloseTo(truth.fanout, 6);
    expect(evidence.join!.agreement).toBeCloseTo(truth.agreement, 6);
    expect(evidence.overlap.jaccard).toBeCloseTo(truth.jaccard, 6);
  });
});
