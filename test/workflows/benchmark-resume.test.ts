import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openSqliteArtifactStore } from '../../activities/artifacts/sqlite-artifact-store';
import { benchmarkStore } from '../../activities/benchmark/benchmark-store';
import { LLM_CACHE_KIND } from '../../activities/llm/llm-cache';
import { startBenchmark, waitForBenchmark } from '../../cli/benchmark-client';
import type { RunBenchmarkInput } from '../../core/benchmark/benchmark-types';
import { startScriptedLlm } from '../../devkit/scripted-llm/server';
import { DATASETS, spiderDev } from '../../devkit/datasets';
import { questionIn, scriptedPipeline } from '../../devkit/scripted-pipeline';
import { startTestStack } from '../../devkit/test-workers';
import { until } from '../support/until';

describe('a benchmark stopped mid-run', () => {
  it('resumes under the same id and never asks an answered question again', async () => {
    const TOTAL = 12;
    const questions = spiderDev().slice(0, TOTAL);
    // Every answer takes 400 ms, so the first run is stopped part way.
    const llm = await startScriptedLlm({
      rules: scriptedPipeline(new Map(questions.map((q) => [q.question, q.query]))),
      faults: { rate: 1, kinds: ['slow'], slowMs: 400 },
    });
    const env = { DECODEX_LLM_BASE_URL: llm.baseUrl, DECODEX_LLM_MODEL: 'scripted-sql', DECODEX_LLM_API_KEY: 'test-key', DECODEX_LLM_TIMEOUT_MS: '10000' };
    const artifactsFile = path.join(mkdtempSync(path.join(os.tmpdir(), 'decodex-resume-')), 'artifacts.sqlite');
    const observer = openSqliteArtifactStore(artifactsFile);
    const store = benchmarkStore(observer);
    const input: RunBenchmarkInput = {
      benchmarkId: `bench-resume-${process.pid}`,
      dataset: 'spider-dev',
      datasetsRoot: DATASETS,
      limit: TOTAL,
      evaluation: { evaluator: 'spider', timeoutMs: 30_000, vesRepetitions: 0 },
      concurrency: 2,
      // One model call per question (the direct path alone): the resume logic is under test.
      preset: 'decosearch',
      ablations: ['selector', 'decomposition'],
      reportDir: mkdtempSync(path.join(os.tmpdir(), 'decodex-resume-report-')),
    };
    const askedIn = (from: number) =>
      llm.requests
        .slice(from)
        .filter((r) => r.api === 'chat')
        .map((r) => questionIn(r.prompt?.user ?? ''));

    try {
      // Run 1: stopped (terminated, workers shut down) once a few questions are recorded.
      const first = await startTestStack(env, { artifactsFile });
      try {
        const started = await startBenchmark(first.client.client, input, first.queuePrefix);
        await until('4 answered questions', async () => (await store.finishedIndexes(input.benchmarkId)).size >= 4, 30_000);
        await started.terminate('simulated crash');
      } finally {
        await first.stop();
      }
      const answered = await store.finishedIndexes(input.benchmarkId);
      expect(answered.size).toBeGreaterThanOrEqual(4);
      expect(answered.size).toBeLessThan(TOTAL);
      const answeredQuestions = new Set([...answered].map((i) => questions[i].question));
      // Without the LLM cache, any question asked again would reach the model and be counted.
      for (const key of await observer.list(LLM_CACHE_KIND)) await observer.delete(LLM_CACHE_KIND, key);

      // Run 2: new workers on the same store, the same command (same benchmark id).
      const requestsBefore = llm.requests.length;
      const second = await startTestStack(env, { artifactsFile });
      try {
        const started = await startBenchmark(second.client.client, input, second.queuePrefix);
        const progress: number[] = [];
        const { summary } = await waitForBenchmark(second.client.client, started.workflowId, (p) => progress.push(p.done), 500);
        expect(summary).toMatchObject({ questions: TOTAL, executableQuestions: TOTAL, correct: TOTAL });
        // Its progress counts the questions the first run answered: it starts there, not at 0.
        expect(progress[0]).toBeGreaterThanOrEqual(answered.size);
        expect(Math.max(...progress)).toBeLessThanOrEqual(TOTAL);
      } finally {
        await second.stop();
      }
      const askedAgain = askedIn(requestsBefore);
      expect(askedAgain).toHaveLength(TOTAL - answered.size);
      expect(askedAgain.filter((q) => answeredQuestions.has(q))).toEqual([]);
      expect(new Set([...answeredQuestions, ...askedAgain]).size).toBe(TOTAL);
    } finally {
      await observer.close();
      await llm.close();
    }
  });
});
