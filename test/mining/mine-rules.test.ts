import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from '@temporalio/worker';
import { openSqliteArtifactStore } from '../../activities/artifacts/sqlite-artifact-store';
import { KNOWLEDGE_KEY, KNOWLEDGE_KINDS } from '../../activities/knowledge/knowledge-store';
import { miningStore } from '../../activities/mining/mining-store';
import { startMining, waitForMining } from '../../cli/mining-client';
import type { CorrectionRule } from '../../core/knowledge/knowledge-types';
import { MINING_DEFAULTS, type MineRulesInput, type MiningProgress } from '../../core/mining/mining-types';
import { miningProgressQuery, traceQuery } from '../../workflows/queries';
import { startScriptedLlm, type ScriptedLlm } from '../../devkit/scripted-llm/server';
import { DATASETS, spiderDatabasePath } from '../../devkit/datasets';
import { miningTrainingItems, PLANTED_RATIOS, writeTrainingJsonl } from '../support/mining-training-set';
import { FAILURE_KINDS, scriptedMiningRules } from '../../devkit/scripted-mining';
import { questionIn, scriptedPipeline } from '../../devkit/scripted-pipeline';
import { startTestStack, type TestStack } from '../../devkit/test-workers';

/**
 * DexterSQL's rule creator end to end on a real Spider training subset (two real training
 * databases, their real train questions, ratio questions planted on them), the real Temporal dev
 * server, real workers and the scripted LLM over HTTP: the mined rule comes from the scripted
 * explanations, only database-agnostic failures in groups big enough make rules, the job's
 * progress is readable while it runs, a rerun mines nothing again, a job stopped by its budget
 * resumes with a larger one, and the online correction then applies the mined rule.
 */
const items = miningTrainingItems();
const gold = new Map(items.map((q) => [q.question, q.sql]));
const wrong = new Map(items.filter((q) => q.wrong).map((q) => [q.question, q.wrong!]));
const ONLINE_RATIO = {
  question: 'What is the ratio of heads older than 60 to heads born in California?',
  sql: "SELECT CAST(SUM(age > 60) AS REAL) / SUM(born_state = 'California') FROM head",
  wrong: "SELECT SUM(age > 60) / SUM(born_state = 'California') FROM head",
};
gold.set(ONLINE_RATIO.question, ONLINE_RATIO.sql);
// Asked by no other test, so its generator prompts are never in the LLM cache when its test starts.
const PAUSED = { question: 'How many farms had more than 5000 horses in total?', sql: 'SELECT count(*) FROM farm WHERE Total_Horses > 5000', db_id: 'farm' };
gold.set(PAUSED.question, PAUSED.sql);

describe('mineRules on a real Spider training subset', () => {
  let llm: ScriptedLlm;
  let stack: TestStack;
  let dataset: string;
  const job = (jobId: string, extra: Partial<MineRulesInput> = {}): MineRulesInput => ({
    ...MINING_DEFAULTS,
    jobId,
    dataset,
    datasetsRoot: DATASETS,
    sample: { size: items.length, seed: 7 },
    // Two candidates per question (direct and divide-and-conquer) over the whole schema: no preparation needed.
    answer: { preset: 'quick', pipeline: { generation: { paths: ['direct', 'divide-and-conquer'] } } },
    concurrency: 2,
    questionsPerRun: 6,
    ...extra,
  });
  const served = () => llm.requests.filter((r) => r.api === 'chat' && r.status === 200).length;

  beforeAll(async () => {
    llm = await startScriptedLlm();
    llm.setRules([
      ...scriptedMiningRules,
      ...scriptedPipeline(gold, { pathSql: (question, p) => (p === 'divide-and-conquer' ? wrong.get(question) : undefined) }),
    ]);
    stack = await startTestStack({
      DECODEX_LLM_BASE_URL: llm.baseUrl,
      DECODEX_LLM_MODEL: 'scripted',
      DECODEX_LLM_API_KEY: 'k',
      DECODEX_LLM_TIMEOUT_MS: '5000',
    });
    dataset = writeTrainingJsonl(mkdtempSync(path.join(os.tmpdir(), 'decodex-mining-')), items);
  }, 60_000);
  afterAll(async () => {
    await stack?.stop();
    await llm?.close();
  });

  it('stops cleanly when its budget runs out and resumes with a larger one, never mining a question twice', async () => {
    const input = job('mining-budget', {
      sample: { size: 10, seed: 3, databases: ['farm'] },
      budget: { maxTokens: 10_000_000, maxLlmCalls: 6 },
      clustering: { ...MINING_DEFAULTS.clustering, minGroupSize: 2 },
    });
    await startMining(stack.client.client, input, stack.queuePrefix);
    const stopped = await waitForMining(stack.client.client, input.jobId, () => {});
    expect(stopped.status).toBe('budget_exhausted');
    expect(stopped.stoppedBy).toMatch(/LLM call budget of 6/);
    expect(stopped.progress.done).toBeGreaterThan(0);
    expect(stopped.progress.done).toBeLessThan(10);
    expect(stopped.rules).toEqual([]);
    const store = openSqliteArtifactStore(stack.artifactsFile);
    const firstMined = await miningStore(store).finishedIndexes(input.jobId);
    expect(firstMined.size).toBe(stopped.progress.done);
    const generatorPromptsBefore = llm.requests.filter((r) => r.roleGuess === 'generator').map((r) => questionIn(r.prompt!.user));

    await startMining(stack.client.client, { ...input, budget: { maxTokens: 10_000_000, maxLlmCalls: 1_000 } }, stack.queuePrefix);
    const resumed = await waitForMining(stack.client.client, input.jobId, () => {});
    expect(resumed.status).toBe('completed');
    expect(resumed.progress.done).toBe(10);
    // The budget counts the whole job: the first run's calls are part of the resumed run's spending.
    expect(resumed.progress.llmCalls).toBeGreaterThan(stopped.progress.llmCalls);
    const records = await miningStore(store).records(input.jobId);
    await store.close();
    expect(records.map((r) => r.index)).toEqual([...Array(10).keys()]);
    // Questions mined before the stop were not asked again.
    const generatorPromptsAfter = llm.requests
      .filter((r) => r.roleGuess === 'generator')
      .map((r) => questionIn(r.prompt!.user))
      .slice(generatorPromptsBefore.length);
    const firstQuestions = records.filter((r) => firstMined.has(r.index)).map((r) => r.question);
    expect(generatorPromptsAfter.filter((q) => firstQuestions.includes(q))).toEqual([]);
  }, 240_000);

  it('a question whose time ran out (a paused worker) is mined once more, and its record is the second run', async () => {
    // Every generator call hangs until the question's second run starts, as if no worker ran: the first run's time runs out.
    let hanging = true;
    const released: (() => void)[] = [];
    const pipeline = [
      ...scriptedMiningRules,
      ...scriptedPipeline(gold, { pathSql: (question, p) => (p === 'divide-and-conquer' ? wrong.get(question) : undefined) }),
    ];
    const generator = pipeline.find((r) => r.name === 'generator')!;
    llm.setRules([
      {
        ...generator,
        reply: async (p) => {
          if (hanging) await new Promise<void>((resolve) => released.push(resolve));
          return generator.reply(p);
        },
      },
      ...pipeline,
    ]);
    const input = job('mining-time', {
      dataset: writeTrainingJsonl(mkdtempSync(path.join(os.tmpdir(), 'decodex-mining-time-')), [PAUSED]),
      sample: { size: 1, seed: 1 },
      answer: { ...job('').answer, limits: { budget: { maxSeconds: 8 } } },
    });
    let result;
    try {
      await startMining(stack.client.client, input, stack.queuePrefix);
      const again = stack.client.client.workflow.getHandle(`${input.jobId}/q0/again`);
      const running = stack.client.client.workflow.getHandle(input.jobId);
      // Wait for the second run; a job that ends first never ran it.
      for (;;) {
        const started = await again.describe().then(
          () => true,
          () => false,
        );
        if (started) break;
        if ((await running.describe()).status.name !== 'RUNNING') throw new Error('the job ended without running the question once more');
        await new Promise((r) => setTimeout(r, 250));
      }
      hanging = false;
      released.splice(0).forEach((resolve) => resolve());
      result = await waitForMining(stack.client.client, input.jobId, () => {});
    } finally {
      hanging = false;
      released.splice(0).forEach((resolve) => resolve());
      llm.setRules(pipeline);
    }
    expect(result.status).toBe('completed');
    expect(result.progress).toMatchObject({ done: 1, failedQuestions: 0 });
    const store = openSqliteArtifactStore(stack.artifactsFile);
    const records = await miningStore(store).records(input.jobId);
    await store.close();
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ workflowId: `${input.jobId}/q0/again/answer`, candidates: 2 });
    expect(records[0].outcome).toMatch(/^answered/);
    // The first run's time-out ended it as out of time, and it stored nothing.
    const first = await stack.client.client.workflow.getHandle(`${input.jobId}/q0`).result();
    expect(first.outOfTime).toBe(true);
  }, 120_000);

  it('mines the planted integer-division failures into a CAST AS REAL rule, showing progress while it runs', async () => {
    const input = job('mining-main');
    const handle = await startMining(stack.client.client, input, stack.queuePrefix);
    // Mid-run: the progress query and the Web UI's current details move with the job.
    const seen: MiningProgress[] = [];
    let details = '';
    while (seen.length < 200) {
      const p = await handle.query(miningProgressQuery).catch(() => null);
      if (p && p.phase === 'mining' && p.done > 0 && p.done < p.total) {
        seen.push(p);
        const meta = (await handle.query('__temporal_workflow_metadata').catch(() => null)) as { currentDetails?: string } | null;
        if (meta?.currentDetails?.includes(`questions mined`)) details = meta.currentDetails;
        if (seen.length >= 2 && seen.at(-1)!.done > seen[0].done && details) break;
      }
      if (p?.phase === 'done') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(seen.length).toBeGreaterThanOrEqual(2);
    expect(seen.at(-1)!.done).toBeGreaterThan(seen[0].done);
    expect(seen.at(-1)!.tokens).toBeGreaterThan(0);
    expect(details).toMatch(/\*\*mining\*\*: \d+\/20 questions mined/);

    const result = await waitForMining(stack.client.client, input.jobId, () => {});
    expect(result.status).toBe('completed');
    expect(result.progress.done).toBe(items.length);
    expect(result.progress.runs).toBeGreaterThan(1); // 20 questions, 6 per run: it continued as new
    // The chain's first run and a question's workflow (a planted ratio: explained and isolated) replay deterministically.
    const bundle = { workflowBundle: { codePath: process.env.DECODEX_TEST_WORKFLOW_BUNDLE! } };
    const firstRun = stack.client.client.workflow.getHandle(input.jobId, handle.firstExecutionRunId);
    await Worker.runReplayHistory(bundle, await firstRun.fetchHistory(), input.jobId);
    await Worker.runReplayHistory(bundle, await stack.client.client.workflow.getHandle(`${input.jobId}/q16`).fetchHistory(), `${input.jobId}/q16`);
    // Failures: 4 ratios + 1 reversed order + 2 wrong columns; the wrong columns are database-specific.
    expect(result.progress.failures).toBe(7);
    expect(result.progress.agnosticFailures).toBe(5);
    // Groups: integer division (2 + 2 merged across databases) and the lone reversed order, which is too small.
    expect(result.progress.groups).toBe(2);
    expect(result.progress.dominantGroups).toBe(1);
    expect(result.rules).toHaveLength(1);
    const rule = result.rules[0];
    expect(rule).toEqual({
      id: 'mined-1',
      gist: FAILURE_KINDS.integerDivision.rule.gist,
      badPattern: FAILURE_KINDS.integerDivision.rule.bad_pattern,
      correctPattern: FAILURE_KINDS.integerDivision.rule.correct_pattern,
      fix: FAILURE_KINDS.integerDivision.rule.fix,
    });

    const store = openSqliteArtifactStore(stack.artifactsFile);
    expect(await store.get<CorrectionRule[]>(KNOWLEDGE_KINDS.rules, KNOWLEDGE_KEY)).toEqual(result.rules);
    expect(result.rulesVersion).toMatch(/^v\d{4}$/);
    const version = await store.get<{ rules: CorrectionRule[] }>(KNOWLEDGE_KINDS.rules, result.rulesVersion!);
    expect(version!.rules).toEqual(result.rules);
    const records = await miningStore(store).records(input.jobId);
    await store.close();
    const ratioRecords = records.filter((r) => PLANTED_RATIOS.some((p) => p.question === r.question));
    expect(ratioRecords.map((r) => r.explanations.map((e) => [e.path, e.agnostic]))).toEqual(Array(4).fill([['divide-and-conquer', true]]));
    const wrongColumn = records.flatMap((r) => r.explanations).filter((e) => e.text === FAILURE_KINDS.wrongColumn.explanation);
    expect(wrongColumn.map((e) => e.agnostic)).toEqual([false, false]);

    // Rerunning the finished job mines nothing again and asks the model nothing (the clustering is cached).
    const before = served();
    await startMining(stack.client.client, input, stack.queuePrefix);
    const again = await waitForMining(stack.client.client, input.jobId, () => {});
    expect(again.rules).toEqual(result.rules);
    expect(served()).toBe(before);
  }, 300_000);

  it('a job whose groups are all too small publishes nothing and leaves the stored rules as they are', async () => {
    const store = openSqliteArtifactStore(stack.artifactsFile);
    const before = await store.get<CorrectionRule[]>(KNOWLEDGE_KINDS.rules, KNOWLEDGE_KEY);
    expect(before).toHaveLength(1);
    const input = job('mining-none', { clustering: { ...MINING_DEFAULTS.clustering, minGroupSize: 50 } });
    await startMining(stack.client.client, input, stack.queuePrefix);
    const result = await waitForMining(stack.client.client, input.jobId, () => {});
    expect(result.status).toBe('completed');
    expect(result.progress.dominantGroups).toBe(0);
    expect(result.rules).toEqual([]);
    expect(result.rulesVersion).toBeUndefined();
    expect(await store.get<CorrectionRule[]>(KNOWLEDGE_KINDS.rules, KNOWLEDGE_KEY)).toEqual(before);
    await store.close();
  }, 300_000);

  it('the online correction selects the mined rule and applies it to a candidate with the bad pattern', async () => {
    // The scripted rule selector picks whichever stored rule says to CAST AS REAL (it only sees what the prompt shows).
    llm.setRules([
      {
        name: 'rule_corrector',
        when: (p) => p.system.includes('against a list of correction rules') && questionIn(p.user) === ONLINE_RATIO.question,
        reply: (p) => {
          const ids = [...p.user.matchAll(/^\[([^\]]+)\] (.*)\n {2}bad: (.*)\n {2}correct: (.*)$/gm)].filter((m) => /AS REAL/.test(m[4])).map((m) => m[1]);
          const sql = /Query:\n([\s\S]*?)\n\nDiagnostic report/.exec(p.user)![1];
          return JSON.stringify({ rules: /CAST/i.test(sql) ? [] : ids, reasoning: 'scripted' });
        },
      },
      ...scriptedPipeline(gold, {
        pathSql: (question) => (question === ONLINE_RATIO.question ? ONLINE_RATIO.wrong : undefined),
        rules: { select: () => [], rewrite: (question) => gold.get(question)! },
      }),
    ]);
    const { result } = await stack.client.ask({
      question: ONLINE_RATIO.question,
      database: spiderDatabasePath('department_management'),
      preset: 'quick',
      pipeline: { correction: { enabled: true, rules: true } },
    });
    expect(result.outcome).toBe('answered');
    const [candidate] = result.candidates;
    expect(candidate.generatedSql).toBe(ONLINE_RATIO.wrong);
    expect(candidate.corrections).toContain('rules mined-1');
    expect(result.sql).toBe(ONLINE_RATIO.sql);
    expect(result.rows).toEqual([[5 / 4]]);
  }, 120_000);
  it('clustering.method sql-differences groups failures by how their query differs from the gold query, with no model call', async () => {
    llm.setRules([
      ...scriptedMiningRules,
      ...scriptedPipeline(gold, { pathSql: (question, p) => (p === 'divide-and-conquer' ? wrong.get(question) : undefined) }),
    ]);
    const input = job('mining-shapes', { clustering: { ...MINING_DEFAULTS.clustering, method: 'sql-differences', minGroupSize: 1 } });
    const before = served();
    await startMining(stack.client.client, input, stack.queuePrefix);
    const result = await waitForMining(stack.client.client, input.jobId, () => {});
    expect(result.status).toBe('completed');
    // The same 5 database-agnostic failures as the main job's (its answers are cached): the reversed
    // order differs in shape (ASC against DESC); the ratios lack only a CAST, the gold query's shape.
    expect(result.progress.agnosticFailures).toBe(5);
    expect(result.progress.groups).toBe(1);
    expect(result.rules).toHaveLength(1);
    const trace = await stack.client.client.workflow.getHandle(input.jobId).query(traceQuery);
    expect(trace.find((t) => t.step === 'groupFailuresBySqlDifference')?.outcome).toBe("1 groups; 4 failures of the gold query's shape in none");
    // The one model call is the rule's: no clustering or merging prompt was sent.
    expect(served() - before).toBe(1);
    // The rule writer saw the failing query beside the gold query, their names and values as
    // placeholders, and no explanation (they name the database's tables).
    const writer = llm.requests.filter((r) => r.prompt?.system.includes('You turn a recurring SQL generation failure')).at(-1)!.prompt!;
    expect(writer.user).toContain('Failure group: the query sorts the other way (ASC against DESC)');
    expect(writer.user).toMatch(/\n- wrong: SELECT <column1> , <column2> FROM <table1> ORDER BY <column3> LIMIT 1\n {2}right: SELECT .*DESC/);
    expect(writer.user).not.toMatch(/city|Population/i);
    // The rule's gist is the difference in code's words, and the rule keeps the difference for the online gate.
    expect(result.rules[0]).toMatchObject({ gist: 'The query sorts the other way (ASC against DESC).', difference: 'sorts the other way (ASC against DESC)' });
    const store = openSqliteArtifactStore(stack.artifactsFile);
    const records = await miningStore(store).records(input.jobId);
    await store.close();
    const shaped = records.flatMap((r) => r.explanations).filter((e) => e.agnostic && e.differences?.length);
    expect(shaped.map((e) => e.differences)).toEqual([['sorts the other way (ASC against DESC)']]);
  }, 300_000);
});
