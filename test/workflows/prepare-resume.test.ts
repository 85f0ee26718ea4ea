import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MockActivityEnvironment } from '@temporalio/testing';
import { ARTIFACT_KINDS, artifactKeys } from '../../activities/prepared/preparation-artifacts';
import { resolvePreparationLimits } from '../../core/preparation/preparation-config';
import type { TableProfile } from '../../core/profiling/column-profile';
import type { ProfileTablesOutput } from '../../activities/profiling/profile-tables';
import { startScriptedLlm, type ScriptedLlm } from '../../devkit/scripted-llm/server';
import { activityRecords } from '../../devkit/activity-history';
import { scriptedExplorationRules } from '../../devkit/scripted-exploration-rules';
import { createSyntheticDatabase } from '../../devkit/synthetic-database';
import { startTestStack, type TestStack } from '../../devkit/test-workers';
import { startPreparationHarness, type PreparationHarness } from '../../devkit/preparation-harness';

/**
 * Long preparations survive interruptions without redoing finished work: a retried
 * `profileTables` batch skips the tables it stored and resumes the one in flight after the last
 * column its heartbeat recorded, and a new run skips every table whose profile is stored. (scripts/demo-resume-preparation.ts shows the same with
 * a worker process killed by SIGKILL.)
 */
describe('resuming an interrupted preparation', () => {
  let harness: PreparationHarness;
  beforeAll(() => {
    harness = startPreparationHarness();
  });
  afterAll(() => harness.close());

  it('a retried batch skips the tables stored, resumes the one in flight from its heartbeat, and profiles the same', async () => {
    const database = createSyntheticDatabase(harness.dir, { tables: 3, columns: 12, rows: 500, name: 'three_tables' });
    const { inspection } = await harness.explore(database);
    const { databaseId, versions } = inspection;
    const keyOf = (table: string) => artifactKeys.tableProfile(databaseId, versions, table);
    const whole = await Promise.all(['table_0', 'table_1', 'table_2'].map((t) => harness.store.get<TableProfile>(ARTIFACT_KINDS.tableProfile, keyOf(t))));
    // What an attempt that died in table_1 after 5 columns left: table_0 stored, table_1 in its
    // last heartbeat, table_2 not started.
    await harness.store.delete(ARTIFACT_KINDS.tableProfile, keyOf('table_1'));
    await harness.store.delete(ARTIFACT_KINDS.tableProfile, keyOf('table_2'));
    const env = new MockActivityEnvironment({
      attempt: 2,
      heartbeatTimeoutMs: 30_000,
      heartbeatDetails: { table: 'table_1', profiles: whole[1]!.columns.slice(0, 5) },
    });
    const { queryTimeoutMs, columnsPerScan } = resolvePreparationLimits();
    const out: ProfileTablesOutput = await env.run(harness.activities.profileTables, {
      database,
      databaseId,
      versions,
      tables: ['table_0', 'table_1', 'table_2'],
      config: harness.config.profile,
      queryTimeoutMs,
      columnsPerScan,
    });
    expect(out.tables.map((t) => [t.table, t.alreadyStored, t.resumedAtColumn])).toEqual([
      ['table_0', true, 0],
      ['table_1', false, 5],
      // The details were table_1's: table_2 starts from its first column.
      ['table_2', false, 0],
    ]);
    for (const [i, table] of ['table_0', 'table_1', 'table_2'].entries())
      expect(await harness.store.get(ARTIFACT_KINDS.tableProfile, keyOf(table))).toEqual(whole[i]);
  });

  describe('on Temporal', () => {
    let llm: ScriptedLlm;
    let stack: TestStack;
    beforeAll(async () => {
      llm = await startScriptedLlm({ rules: scriptedExplorationRules });
      stack = await startTestStack({ DECODEX_LLM_BASE_URL: llm.baseUrl, DECODEX_LLM_MODEL: 'scripted', DECODEX_LLM_API_KEY: 'test-key' });
    });
    afterAll(async () => {
      await stack?.stop();
      await llm?.close();
    });

    it('packs tables into profiling activities of about limits.valuesPerActivity values', async () => {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'decodex-batches-'));
      // 5 tables of 100 rows × 4 columns (id and 3): 400 values each.
      const shape = { tables: 5, columns: 3, rows: 100 };
      const profiledIn = async (name: string, limits: { valuesPerActivity?: number }) => {
        const database = createSyntheticDatabase(dir, { ...shape, name });
        const run = await stack.client.prepare({ database, limits, config: { exploration: { useLlm: false, maxCandidatePairs: 1 } } });
        expect(run.result.status).toBe('prepared');
        return (await activityRecords(run.handle)).filter((a) => a.name === 'profileTables').map((a) => (a.input as { tables: string[] }).tables);
      };
      expect(await profiledIn('packed', { valuesPerActivity: 1_000 })).toEqual([['table_0', 'table_1'], ['table_2', 'table_3'], ['table_4']]);
      expect(await profiledIn('one_activity', {})).toEqual([['table_0', 'table_1', 'table_2', 'table_3', 'table_4']]);
    });

    it('a new run after an interrupted one profiles only the tables not stored yet', async () => {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'decodex-resume-'));
      const database = createSyntheticDatabase(dir, { tables: 6, columns: 16, rows: 8000 });
      // One table per activity, one at a time, so the run is surely interrupted between tables;
      // small value and candidate bounds keep what follows profiling short.
      const request = {
        database,
        limits: { parallelTables: 1, valuesPerActivity: 1 },
        config: { index: { valuesPerColumn: 50 }, exploration: { maxCandidatePairs: 2 } },
      };
      const first = await stack.client.startPreparation(request);
      for (;;) {
        const progress = await stack.client.progress(first.workflowId).catch(() => null);
        if (progress && progress.step !== 'inspect' && progress.done >= 2) break;
        await new Promise((r) => setTimeout(r, 25));
      }
      await first.handle.terminate('interrupted by the test');

      const second = await stack.client.prepare(request);
      expect(second.result.status).toBe('prepared');
      const activities = await activityRecords(second.handle);
      // What inspect found stored (the interrupted run's table in flight may have finished too).
      const stored = (activities.find((a) => a.name === 'inspectDatabase')!.result as { profiledTables: string[] }).profiledTables;
      const profiled = activities.filter((a) => a.name === 'profileTables').flatMap((a) => (a.input as { tables: string[] }).tables);
      expect(stored.length).toBeGreaterThanOrEqual(2);
      expect(second.result.reusedTables).toBe(stored.length);
      expect(second.result.profiledTables).toBe(profiled.length);
      expect([...stored, ...profiled].sort()).toEqual(['table_0', 'table_1', 'table_2', 'table_3', 'table_4', 'table_5']);
    });
  });
});
