import { copyFileSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { Worker } from '@temporalio/worker';
import { openSqliteArtifactStore } from '../../activities/artifacts/sqlite-artifact-store';
import type { ArtifactStore } from '../../activities/artifacts/artifact-store';
import { ARTIFACT_KINDS } from '../../activities/prepared/preparation-artifacts';
import { EmbeddedVectorStore } from '../../activities/vectors/embedded-vector-store';
import type { DisambiguationNote } from '../../core/exploration/pair-types';
import { DATABASE } from '../../core/search-attributes';
import { startScriptedLlm, type ScriptedLlm } from '../../devkit/scripted-llm/server';
import { spiderDatabasePath } from '../../devkit/datasets';
import { runCli } from '../../devkit/run-cli';
import { createRunningExampleDatabase } from '../support/running-example-database';
import { scriptedExplorationRules } from '../../devkit/scripted-exploration-rules';
import { startTestStack, type TestStack } from '../../devkit/test-workers';
import { activityRecords } from '../../devkit/activity-history';

describe('prepareDatabase on a real Temporal dev server', () => {
  let llm: ScriptedLlm;
  let stack: TestStack;
  let store: ArtifactStore;
  let vectorsDir: string;
  const llmEnv = () => ({ DECODEX_LLM_BASE_URL: llm.baseUrl, DECODEX_LLM_MODEL: 'scripted', DECODEX_LLM_API_KEY: 'test-key', DECODEX_LLM_TIMEOUT_MS: '5000' });

  beforeAll(async () => {
    llm = await startScriptedLlm({ rules: scriptedExplorationRules });
    vectorsDir = mkdtempSync(path.join(os.tmpdir(), 'decodex-vectors-'));
    stack = await startTestStack(llmEnv(), { vectorsDir });
    store = openSqliteArtifactStore(stack.artifactsFile);
  });
  afterAll(async () => {
    await store?.close();
    await stack?.stop();
    await llm?.close();
  });

  const collections = async () => {
    const vectors = new EmbeddedVectorStore(vectorsDir);
    try {
      return await vectors.listCollections();
    } finally {
      await vectors.close();
    }
  };

  it("prepares the paper's running example: finds, triages, measures and notes the diagnosis pair; reruns are no-ops; a change replaces everything", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'decodex-prep-wf-'));
    const database = createRunningExampleDatabase(dir);
    const first = await stack.client.prepare({ database });
    const { result } = first;

    expect(result.status).toBe('prepared');
    expect(result.manifest.counts).toMatchObject({ tables: 2, columns: 4, rows: 5, candidatePairs: 1, confirmedPairs: 1, notes: 1, valuesIndexed: 4 });
    expect(result.usage.llmCalls).toBe(4); // three triage prompts + one note
    expect(result.steps.map((s) => s.step)).toEqual(['inspect', 'profile', 'index', 'candidates', 'triage', 'statistics', 'notes', 'publish']);
    expect(await stack.client.progress(first.workflowId)).toEqual({ step: 'done', done: 1, total: 1 });
    expect((await first.handle.describe()).typedSearchAttributes.get(DATABASE)).toBe('thrombosis_example');

    // The Web UI's event list reads like §3.1: one named activity per step, each with a summary.
    const activities = await activityRecords(first.handle);
    expect(activities.map((a) => a.name).sort()).toEqual(
      [
        'inspectDatabase',
        // Both small tables in one batch (limits.valuesPerActivity).
        'profileTables',
        'buildIndices',
        'findCandidatePairs',
        'triageAmbiguousPair',
        'measurePairStatistics',
        'synthesizeNote',
        'publishPreparation',
      ].sort(),
    );
    for (const a of activities) expect(a.summary.length).toBeGreaterThan(10);

    // Step 2 asked the same question with increasing information, majority vote.
    const triage = llm.requests.filter((r) => r.roleGuess === 'triager').map((r) => r.prompt!.user);
    expect(triage).toHaveLength(3);
    expect(triage[0]).toContain('Column Patient.Diagnosis');
    expect(triage[0]).not.toContain('Keys of their tables');
    expect(triage[1]).toContain('Join path: Patient.ID = Examination.ID');
    expect(triage[2]).toContain('CREATE TABLE Examination');

    // Step 4 saw the measured evidence, and the note is stored where online questions read it.
    const notePrompt = llm.requests.find((r) => r.roleGuess === 'note_writer')!.prompt!.user;
    expect(notePrompt).toContain('coverage: 100.0% of Patient keys (2 of 2)');
    expect(notePrompt).toContain('fan-out: 1.500');
    expect(notePrompt).toContain('agreement: 33.3% of joined rows');
    const { databaseId, versions } = result.manifest;
    const notes = await store.get<DisambiguationNote[]>(ARTIFACT_KINDS.noteSet, `${databaseId}/${versions.exploration}`);
    expect(notes).toHaveLength(1);
    expect(notes![0].columns.map((c) => `${c.table}.${c.column}`)).toEqual(['Examination.Diagnosis', 'Patient.Diagnosis']);
    expect(notes![0].note).toMatch(/Scripted note on Examination\.Diagnosis, Patient\.Diagnosis/);
    expect(await collections()).toEqual(expect.arrayContaining([result.manifest.collections.profiles, result.manifest.collections.values]));

    // The recorded history replays deterministically against the current workflow code.
    await Worker.runReplayHistory(
      { workflowBundle: { codePath: process.env.DECODEX_TEST_WORKFLOW_BUNDLE! } },
      await first.handle.fetchHistory(),
      first.workflowId,
    );

    // Unchanged database: nothing to do, nothing paid.
    const llmRequests = llm.requests.length;
    const again = await stack.client.prepare({ database });
    expect(again.result.status).toBe('unchanged');
    expect(again.result.manifest).toEqual(result.manifest);
    expect((await activityRecords(again.handle)).map((a) => a.name)).toEqual(['inspectDatabase']);
    expect(llm.requests.length).toBe(llmRequests);

    // Changed data: new versions, new statistics, and nothing of the old version left behind.
    const db = new Database(database);
    db.prepare("INSERT INTO Examination (ID, Diagnosis) VALUES (2, 'PSS')").run();
    db.close();
    const changed = await stack.client.prepare({ database });
    expect(changed.result.status).toBe('prepared');
    expect(changed.result.manifest.versions.profile).not.toBe(versions.profile);
    const [evidence] = (await activityRecords(changed.handle)).find((a) => a.name === 'measurePairStatistics')!.result as {
      join: { agreement: number; fanout: number };
    }[];
    expect(evidence.join).toMatchObject({ agreement: 0.5, fanout: 2 });
    for (const kind of [ARTIFACT_KINDS.tableProfile, ARTIFACT_KINDS.schema, ARTIFACT_KINDS.valueLexicon, ARTIFACT_KINDS.noteSet, ARTIFACT_KINDS.pairEvidence]) {
      const keys = await store.list(kind, `${databaseId}/`);
      expect(keys.length).toBeGreaterThan(0);
      expect(keys.filter((k) => k.includes(versions.profile) || k.includes(versions.index) || k.includes(versions.exploration))).toEqual([]);
    }
    const names = await collections();
    expect(names).not.toContain(result.manifest.collections.values);
    expect(names).toContain(changed.result.manifest.collections.values);
  });

  it('stops asking the model at its budget, says so, and a later run finishes the job', async () => {
    const database = createRunningExampleDatabase(mkdtempSync(path.join(os.tmpdir(), 'decodex-prep-budget-')));
    const stopped = await stack.client.prepare({ database, limits: { maxLlmCalls: 2 } });
    expect(stopped.result.status).toBe('budget_exhausted');
    expect(stopped.result.budgetMessage).toMatch(/LLM call budget of 2/);
    expect(stopped.result.usage.llmCalls).toBe(0);
    expect(stopped.result.manifest).toMatchObject({ complete: false, counts: { candidatePairs: 1, confirmedPairs: 0, notes: 0 } });

    const finished = await stack.client.prepare({ database });
    expect(finished.result.status).toBe('prepared');
    expect(finished.result.reusedTables).toBe(2);
    expect(finished.result.manifest).toMatchObject({ complete: true, counts: { confirmedPairs: 1, notes: 1 } });
  });

  it('without a model (exploration.useLlm off) measures every candidate pair, asks nothing and writes no note', async () => {
    const database = createRunningExampleDatabase(mkdtempSync(path.join(os.tmpdir(), 'decodex-prep-nollm-')));
    const requests = llm.requests.length;
    const { result, handle } = await stack.client.prepare({ database, config: { exploration: { useLlm: false } } });
    expect(result.status).toBe('prepared');
    expect(llm.requests.length).toBe(requests);
    expect(result.usage.llmCalls).toBe(0);
    expect(result.manifest.counts).toMatchObject({ candidatePairs: 1, confirmedPairs: 0, notes: 0 });
    const measured = (await activityRecords(handle)).filter((a) => a.name === 'measurePairStatistics');
    expect(measured).toHaveLength(1);
    expect((measured[0].result as { join: { agreement: number; fanout: number; coverage: number } }[])[0].join).toMatchObject({ coverage: 1, fanout: 1.5 });

    // Turning the model on is a different configuration: the exploration is redone, with triage and notes.
    const withLlm = await stack.client.prepare({ database });
    expect(withLlm.result.manifest.versions.exploration).not.toBe(result.manifest.versions.exploration);
    expect(withLlm.result.manifest.counts).toMatchObject({ confirmedPairs: 1, notes: 1 });
  });

  it('prepares a Spider database from the command line with a progress bar', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'decodex-prep-cli-'));
    const database = path.join(dir, 'pets_1.sqlite');
    copyFileSync(spiderDatabasePath('pets_1'), database);
    const run = await runCli(['prepare', '--db', database], {
      DECODEX_HOME: dir,
      TEMPORAL_ADDRESS: stack.address,
      DECODEX_QUEUE_PREFIX: `prep-cli${process.pid}.`,
      ...llmEnv(),
    });
    expect(run.stderr + run.stdout).not.toMatch(/Error:/);
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/done\s+\[#{30}\] 1\/1/);
    expect(run.stdout).toMatch(/status: prepared/);
    expect(run.stdout).toMatch(/tables: 3 \(3 profiled now, 0 reused\)/);
    expect(run.stdout).toMatch(/Web UI: http:\/\/localhost:8233\/namespaces\/default\/workflows\/prepare-pets_1-/);
  });
});
