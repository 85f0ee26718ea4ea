/**
 * What DecoSearch's complex route costs in orchestration, and what its parallel waves save:
 *
 *   npm run bench:dag
 *
 * - dag_node_overhead_ms: with a zero-latency scripted LLM, the extra wall-clock of a 10-node DAG
 *   over a 1-node DAG, per extra node (Temporal round trips, activities, result storage);
 * - dag_10_nodes_seconds: a 10-node DAG in 3 waves (4 leaves, 5 middle nodes, the root) at
 *   200 ms per LLM call, beside dag_10_nodes_llm_serial_seconds (the 11 calls one after another)
 *   and dag_10_nodes_llm_critical_path_seconds (the decomposer and one call per wave).
 * The scripted LLM is a test tool: these figures are about orchestration, never accuracy.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bundleBenchWorkflows, startBenchTemporal } from './bench-temporal';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import type { SubQuestionDag } from '../core/dag/sub-question-dag';
import { startScriptedLlm, type ScriptPrompt, type ScriptedLlm } from '../devkit/scripted-llm/server';
import { createThrombosis } from '../devkit/appendix-d-databases';
import { scriptedDag } from '../devkit/scripted-dag';
import { startWorkerSet } from '../devkit/test-workers';
import { DecodexClient } from '../cli/client';

const LLM_MS = 200;
const RUNS = Number(process.env.BENCH_DAG_RUNS ?? 5);

/** 4 leaves → 5 middle nodes (each reads two leaves) → the root (reads the 5): 3 waves, 10 nodes. */
function tenNodes(tag: string): SubQuestionDag {
  const leaves = [6, 7, 8, 9];
  const middle = [1, 2, 3, 4, 5];
  return {
    nodes: [
      { id: 0, question: `Sum ${middle.map((m) => `@[${m}]`).join(' ')} ${tag}` },
      ...middle.map((m) => ({ id: m, question: `Count patients among @[${leaves[m % 4]}] and @[${leaves[(m + 1) % 4]}] ${tag}` })),
      ...leaves.map((l) => ({ id: l, question: `Leaf ids up to ${l * 10} ${tag}` })),
    ],
    edges: [
      ...middle.map((m) => [0, m] as [number, number]),
      ...middle.flatMap((m) => [[m, leaves[m % 4]] as [number, number], [m, leaves[(m + 1) % 4]] as [number, number]]),
    ],
  };
}

const oneNode = (tag: string): SubQuestionDag => ({ nodes: [{ id: 0, question: `Sum nothing ${tag}` }], edges: [] });

/** A step's SQL from its text and the inputs its prompt lists (`@[n], step n ...`). */
function nodeSql(step: string, prompt: ScriptPrompt): string {
  const inputs = [...prompt.user.matchAll(/^@\[(\d+)\]/gm)].map((m) => Number(m[1]));
  const leaf = /^Leaf ids up to (\d+)/.exec(step);
  if (leaf) return `SELECT ID FROM Patient WHERE ID <= ${leaf[1]}`;
  if (step.startsWith('Count patients')) return `SELECT COUNT(*) FROM Patient WHERE ${inputs.map((n) => `ID IN @[${n}]`).join(' OR ')}`;
  if (step.startsWith('Sum nothing')) return 'SELECT 1';
  return `SELECT ${inputs.map((n) => `@[${n}]`).join(' + ')}`;
}

async function main(): Promise<void> {
  Runtime.install({ logger: new DefaultLogger('ERROR') });
  const dir = mkdtempSync(path.join(os.tmpdir(), 'decodex-bench-dag-'));
  const database = createThrombosis(dir, 200);
  const env = await startBenchTemporal();
  const code = await bundleBenchWorkflows();
  const dags = new Map<string, SubQuestionDag>();
  const llm: ScriptedLlm = await startScriptedLlm({ rules: scriptedDag({ decompose: (q) => dags.get(q)!, nodeSql }) });
  const codePath = path.join(dir, 'workflows.js');
  writeFileSync(codePath, code);
  const queuePrefix = 'bench-dag.';
  const workers = await startWorkerSet(
    { DECODEX_LLM_BASE_URL: llm.baseUrl, DECODEX_LLM_MODEL: 'scripted', DECODEX_LLM_API_KEY: 'k' },
    { address: env.address, queuePrefix, codePath, llmConcurrency: 16 },
  );
  const client = await DecodexClient.connect({ address: env.address, queuePrefix });
  let asked = 0;
  const ask = async (dag: (tag: string) => SubQuestionDag): Promise<number> => {
    const question = `Benchmark question ${++asked}`;
    dags.set(question, dag(`(run ${asked})`));
    const t0 = performance.now();
    const { result } = await client.ask({
      question,
      database,
      preset: 'decosearch',
      ablations: ['selector'],
      pipeline: { decomposition: { always: true } },
    });
    if (result.outcome !== 'answered' || result.route !== 'complex')
      throw new Error(
        `benchmark question ended ${result.outcome} on the ${result.route} route: ${JSON.stringify(result.trace.filter((t) => !t.ok).map((t) => t.detail ?? t.skipped))}`,
      );
    return performance.now() - t0;
  };
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  try {
    await ask(oneNode); // warm-up: bundles loaded, first connections made
    const one: number[] = [];
    const ten: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      one.push(await ask(oneNode));
      ten.push(await ask(tenNodes));
    }
    llm.setFaults({ rate: 1, kinds: ['slow'], slowMs: LLM_MS });
    const slow: number[] = [];
    for (let i = 0; i < Math.max(1, Math.ceil(RUNS / 2)); i++) slow.push(await ask(tenNodes));
    console.log(`dag_node_overhead_ms: ${((median(ten) - median(one)) / 9).toFixed(1)}`);
    console.log(`dag_1_node_question_ms: ${median(one).toFixed(0)}`);
    console.log(`dag_10_nodes_question_ms_zero_latency: ${median(ten).toFixed(0)}`);
    console.log(`dag_10_nodes_seconds: ${(median(slow) / 1000).toFixed(2)}`);
    console.log(`dag_10_nodes_llm_serial_seconds: ${((11 * LLM_MS) / 1000).toFixed(2)}`);
    console.log(`dag_10_nodes_llm_critical_path_seconds: ${((4 * LLM_MS) / 1000).toFixed(2)}`);
  } finally {
    await client.close();
    await workers.stop();
    await llm.close();
    await env.teardown();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
