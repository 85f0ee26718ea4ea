import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { WorkflowHandle } from '@temporalio/client';
import { createDatabaseActivities } from '../../activities/database/database-activities';
import { DatabaseRegistry } from '../../activities/database/database-registry';
import { openTargetDatabase } from '../../activities/database/open-database';
import { startScriptedStack, type ScriptedStack } from '../support/scripted-stack';
import type { TestStack } from '../../devkit/test-workers';

/**
 * The chosen SQL runs once: with one candidate (preset quick), its diagnosis reads the rows
 * under the answer's own limits and the answer takes them, instead of running the SQL again.
 * With several candidates, only the chosen one's rows are wanted: it runs once more, as before.
 */
const QUESTION = 'List every reading with its value.';
const SQL = 'SELECT id, value, label FROM reading ORDER BY id';
const LIMITS = { maxRows: 120, maxCellBytes: 64, maxResultBytes: 4096 };
const RUNAWAY = 'Count the numbers without end.';
const RUNAWAY_SQL = 'WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) SELECT count(*) FROM n';
const MISTAKEN = 'Show the readings by their colour.';
const MISTAKEN_SQL = 'SELECT colour FROM reading';

async function activityNames(handle: WorkflowHandle): Promise<string[]> {
  const history = await handle.fetchHistory();
  return (history.events ?? []).flatMap((e) => e.activityTaskScheduledEventAttributes?.activityType?.name ?? []);
}

describe('the answer runs its SQL once', () => {
  let scripted: ScriptedStack;
  let stack: TestStack;
  let file: string;

  beforeAll(async () => {
    file = path.join(mkdtempSync(path.join(os.tmpdir(), 'decodex-rows-once-')), 'readings.sqlite');
    const db = new Database(file);
    db.exec('CREATE TABLE reading (id INTEGER PRIMARY KEY, value REAL, label TEXT)');
    const insert = db.prepare('INSERT INTO reading VALUES (?, ?, ?)');
    // Whole-valued REALs (2.0), and labels past the cell limit: both must come back as executeSql gives them.
    for (let i = 1; i <= 300; i++) insert.run(i, i % 2 ? i + 0.5 : i, `label ${i} `.repeat(i % 7 === 0 ? 20 : 1));
    db.close();
    scripted = await startScriptedStack(
      new Map([
        [QUESTION, SQL],
        [RUNAWAY, RUNAWAY_SQL],
        [MISTAKEN, MISTAKEN_SQL],
      ]),
    );
    stack = scripted.stack;
  });
  afterAll(() => scripted?.stop());

  it('one candidate: the diagnosis rows are the answer, exactly as a second execution would return them', async () => {
    const { result, handle } = await stack.client.ask({ question: QUESTION, database: file, preset: 'quick', limits: LIMITS });
    expect(result.outcome).toBe('answered');
    expect(await activityNames(handle)).toEqual(['openQuestion', 'generateSqlDirect', 'diagnoseSql']);
    expect(result.trace.filter((t) => t.stage === 'answer').map((t) => t.step)).toEqual(['answerRows']);

    const registry = new DatabaseRegistry(openTargetDatabase);
    try {
      const direct = await createDatabaseActivities(registry).executeSql({ database: file, sql: SQL, timeoutMs: 30_000, ...LIMITS });
      if (!direct.ok) throw new Error(direct.error.message);
      expect(result.columns).toEqual(direct.result.columns);
      expect(result.rows).toEqual(direct.result.rows);
      expect(result.truncated).toBe(direct.result.truncated);
      expect(result.byteLimit).toEqual(direct.result.byteLimit);
    } finally {
      await registry.closeAll();
    }
    // The limits held: at most 120 rows (the SQL has 300), cut to the byte limit, marked as cut.
    expect(result.rows.length).toBeLessThanOrEqual(LIMITS.maxRows);
    expect(result.truncated).toBe(true);
    expect(result.byteLimit?.cutCells).toBeGreaterThan(0);
    expect(Buffer.byteLength(JSON.stringify(result.rows))).toBeLessThanOrEqual(LIMITS.maxResultBytes);
  });

  it('several candidates: the chosen SQL runs once more for the answer', async () => {
    const { result, handle } = await stack.client.ask({ question: QUESTION, database: file, preset: 'hybrid', limits: LIMITS });
    expect(result.outcome).toBe('answered');
    expect(result.candidates.length).toBeGreaterThan(1);
    const names = await activityNames(handle);
    expect(names.filter((n) => n === 'diagnoseSql')).toHaveLength(result.candidates.length);
    expect(names.filter((n) => n === 'executeSql')).toHaveLength(1);
    expect(result.trace.filter((t) => t.stage === 'answer').map((t) => t.step)).toEqual(['executeSql']);
    expect(result.rows.length).toBeLessThanOrEqual(LIMITS.maxRows);
  });

  it.each([
    ['timed out', RUNAWAY, 'timeout'],
    ['failed', MISTAKEN, 'sql_error'],
  ])('a statement that %s in its diagnosis is not run again: the failure is the answer', async (_what, question, kind) => {
    const { result, handle } = await stack.client.ask({ question, database: file, preset: 'quick', limits: { ...LIMITS, sqlTimeoutMs: 1_500 } });
    expect(result.outcome).toBe('execution_error');
    expect(result.error?.kind).toBe(kind);
    expect(await activityNames(handle)).toEqual(['openQuestion', 'generateSqlDirect', 'diagnoseSql']);
    expect(result.trace.find((t) => t.step === 'answerRows')?.summary).toMatch(/already failed .* not run again/);
  });
});
