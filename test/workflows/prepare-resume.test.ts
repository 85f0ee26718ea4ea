import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MockActivityEnvironment } from '@temporalio/testing';
import { ARTIFACT_KINDS, artifactKeys } from '../../activities/preparation/preparation-artifacts';
import { resolvePreparationLimits } from '../../core/preparation/preparation-config';
import type { TableProfile } from '../../core/profiling/column-profile';
import { startScriptedLlm, type ScriptedLlm } from '../scripted-llm/server';
import { activityRecords } from '../support/activity-history';
import { scriptedExplorationRules } from '../support/scripted-exploration-rules';
import { createSyntheticDatabase } from '../support/synthetic-database';
import { startTestStack, type TestStack } from '../support/test-workers';
import { startPreparationHarness, type PreparationHarness } from '../preparation/preparation-harness';

/**
 * Long preparations survive interruptions without redoing finished work: a retried
 * `profileTable` resumes after the last column its heartbeat recorded, and a new run skips
 * every table whose profile is stored. (scripts/demo-resume-preparation.ts shows the same with
 * a worker process killed by SIGKILL.)
 */
describe('resuming an interrupted preparation', () => {
  let harness: PreparationHarness;
  beforeAll(() => {
    harness = startPreparationHarness();
  });
  afterAll(() => harness.close());

  it('a retried profileTable resumes from its heartbeat details and profiles the same', async () => {
    const database = createSyntheticDatabase(harness.dir, { tables: 1, columns: 12, rows: 500, name: 'one_table' });
    const { inspection } = await harness.explore(database);
    const { databaseId, versions } = inspection;
    const key = artifactKeys.tableProfile(databaseId, versions, 'table_0');
    const whole = (await harness.store.get<TableProfile>(ARTIFACT_KINDS.tableProfile, key))!;
    await harness.store.delete(ARTIFACT_KINDS.tableProfile, key);

    // What an attempt that died after 5 columns left in its last heartbeat.
    const env = new MockActivityEnvironment({ attempt: 2, heartbeatTimeoutMs: 30_000, heartbeatDetails: { profiles: whole.columns.slice(0, 5) } });
    const { queryTimeoutMs, columnsPerScan } = resolvePreparationLimits();
    const out: { resumedAtColumn: number } = await env.run(harness.activities.profileTable, {
      database,
      databaseId,
      versions,
      table: 'table_0',
      config: harness.config.profile,
      queryTimeoutMs,
      columnsPerScan,
    });
    expect(out.resumedAtColumn).toBe(5);
    expect(await harness.store.get(ARTIFACT_KINDS.tableProfile, key)).toEqual(whole);
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

    it('a new run after an interrupted one profiles only the tables not stored yet', async () => {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'decodex-resume-'));
      const database = createSyntheticDatabase(dir, { tables: 6, columns: 16, rows: 8000 });
      // One table at a time, so the run is surely interrupted between tables; small value and
      // candidate bounds keep what follows profiling short.
      const request = { database, limits: { parallelTables: 1 }, config: { index: { valuesPerColumn: 50 }, exploration: { maxCandidatePairs: 2 } } };
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
      const profiled = activities.filter((a) => a.name === 'profileTable').map((a) => (a.input as { table: string }).table);
      expect(stored.length).toBeGreaterThanOrEqual(2);
      expect(second.result.reusedTables).toBe(stored.length);
      expect(second.result.profiledTables).toBe(profiled.length);
      expect([...stored, ...profiled].sort()).toEqual(['table_0', 'table_1', 'table_2', 'table_3', 'table_4', 'table_5']);
    });
  });
});
