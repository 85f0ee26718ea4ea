import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from '@temporalio/worker';
import { startBenchmark, waitForBenchmark } from '../../cli/benchmark-client';
import type { BenchmarkReport } from '../../activities/benchmark/write-benchmark-report';
import type { RunBenchmarkInput } from '../../core/benchmark/benchmark-types';
import { startScriptedLlm } from '../../devkit/scripted-llm/server';
import { DATASETS, spiderDev } from '../../devkit/datasets';
import { scriptedPipeline } from '../../devkit/scripted-pipeline';
import { startTestStack, type TestStack } from '../../devkit/test-workers';

describe('runBenchmark over Spider dev with the scripted LLM answering the gold SQL', () => {
  const LIMIT = 40;
  const questions = spiderDev().slice(0, LIMIT);
  let llm: Awaited<ReturnType<typeof startScriptedLlm>>;
  let stack: TestStack;

  beforeAll(async () => {
    llm = await startScriptedLlm({ rules: scriptedPipeline(new Map(questions.map((q) => [q.question, q.query]))) });
    stack = await startTestStack({ DECODEX_LLM_BASE_URL: llm.baseUrl, DECODEX_LLM_MODEL: 'scripted-sql', DECODEX_LLM_API_KEY: 'test-key' });
  });
  afterAll(async () => {
    await stack?.stop();
    await llm?.close();
  });

  it('asks every question as a child workflow, scores 100% and writes JSON, Markdown and a chart', async () => {
    const reportDir = mkdtempSync(path.join(os.tmpdir(), 'decodex-bench-'));
    const input: RunBenchmarkInput = {
      benchmarkId: `bench-e2e-${process.pid}`,
      dataset: 'spider-dev',
      datasetsRoot: DATASETS,
      limit: LIMIT,
      evaluation: { evaluator: 'spider', timeoutMs: 30_000, vesRepetitions: 0 },
      // The harness is under test, not the pipeline: DecoSearch's direct path alone, one call per question.
      preset: 'decosearch',
      ablations: ['selector', 'decomposition'],
      concurrency: 4,
      // Forces two continue-as-new hand-overs inside 40 questions.
      questionsPerRun: 15,
      reportDir,
      roleModels: { generator: 'scripted-sql' },
      prices: { 'scripted-sql': { inputPerMillion: 1, outputPerMillion: 2 } },
    };
    const requestsBefore = llm.requests.length;
    const started = await startBenchmark(stack.client.client, input, stack.queuePrefix);
    const { summary, files } = await waitForBenchmark(stack.client.client, started.workflowId, () => {}, 500);

    expect(summary).toMatchObject({
      dataset: 'spider-dev',
      evaluator: 'spider',
      questions: LIMIT,
      executableQuestions: LIMIT,
      correct: LIMIT,
      exExecutable: 1,
      llmCalls: LIMIT,
    });
    expect(summary.byRole.generator.calls).toBe(LIMIT);
    expect(summary.tokens.total).toBeGreaterThan(0);
    expect(summary.costUsd).toBeGreaterThan(0);
    expect(summary.latencyMs?.p50).toBeGreaterThan(0);
    expect(llm.requests.length - requestsBefore).toBe(LIMIT);

    const latest = await stack.client.client.workflow.getHandle(started.workflowId).describe();
    expect(latest.runId).not.toBe(started.firstExecutionRunId); // continued as new
    const child = await stack.client.client.workflow.getHandle(`${input.benchmarkId}/q0`).describe();
    expect(child.type).toBe('answerQuestion');
    expect(child.status.name).toBe('COMPLETED');
    // The first run of the chain replays deterministically from its history.
    const firstRun = stack.client.client.workflow.getHandle(started.workflowId, started.firstExecutionRunId);
    await Worker.runReplayHistory(
      { workflowBundle: { codePath: process.env.DECODEX_TEST_WORKFLOW_BUNDLE! } },
      await firstRun.fetchHistory(),
      started.workflowId,
    );

    const report = JSON.parse(readFileSync(files.report_json, 'utf8')) as BenchmarkReport;
    expect(report.records).toHaveLength(LIMIT);
    report.records.forEach((r, i) => {
      expect(r).toMatchObject({
        index: i,
        predictedSql: questions[i].query,
        goldSql: questions[i].query,
        verdict: 'correct',
        route: 'direct',
        outcome: 'answered',
      });
      expect(r.usage.byRole.generator.calls).toBe(1);
    });
    const markdown = readFileSync(files.summary_markdown, 'utf8');
    expect(markdown).toMatch(/\| EX \(%\) \|( 100\.00 \|)+/);
    const svg = readFileSync(files.chart_svg, 'utf8');
    expect(svg).toContain('decosearch − selector − decomposition (100.0%)');
    // The chart opens as an image: librsvg (installed by `npm run setup -- --test-services`) renders it.
    const png = path.join(reportDir, 'chart.png');
    execFileSync('rsvg-convert', ['-o', png, files.chart_svg]);
    expect(readFileSync(png).subarray(1, 4).toString()).toBe('PNG');
  });
});
