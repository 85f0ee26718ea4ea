/**
 * The input tokens of the prompts each preset builds, for Spider dev questions on their real
 * schemas, through the real `answerQuestion` workflow on a real Temporal dev server. The
 * scripted LLM stands in for the model with fixed, plausible answers (each role answers in its
 * template's shape; SQL answers are the gold SQL), so every run takes the same path and the
 * figures measure decodex's prompts, not a model's luck. Tokens are counted with the o200k_base
 * tokenizer (GPT-4o's; js-tiktoken), over the system and user messages each request sent.
 *
 *   npm run bench:tokens [-- --limit 100] [--presets decosearch,dextersql,hybrid]
 *
 * Each preset runs on a stack of its own (own artifact store, so no LLM-cache hit hides a
 * prompt; databases are prepared on first use, without a model: no notes). Prints:
 * - input_tokens_per_question_<preset>: mean input tokens over all calls of a question;
 * - input_tokens_per_question_<preset>_<role>: the same, per role;
 * - llm_calls_per_question_<preset>, questions.
 * DecoSearch reports about 930 tokens per Spider question in total (its paper, §4.2).
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bundleBenchWorkflows, startBenchTemporal } from './bench-temporal';
import { DefaultLogger, NativeConnection, Runtime } from '@temporalio/worker';
import { getEncoding } from 'js-tiktoken';
import { openSqliteArtifactStore } from '../activities/artifacts/sqlite-artifact-store';
import { DatabaseRegistry } from '../activities/database/database-registry';
import { openTargetDatabase } from '../activities/database/open-database';
import { indexEmbeddersFromEnv } from '../activities/indexing/index-backends';
import { loadLlmConfig } from '../activities/llm/llm-config';
import { createLlmService } from '../activities/llm/llm-service';
import { EmbeddedVectorStore } from '../activities/vectors/embedded-vector-store';
import { DecodexClient } from '../cli/client';
import { datasetsRoot } from '../core/datasets/datasets-root';
import { mapWithConcurrency } from '../core/map-with-concurrency';
import { PRESET_NAMES } from '../core/pipeline/pipeline-config';
import { ALL_TASK_QUEUES } from '../core/task-queues';
import { startScriptedLlm } from '../devkit/scripted-llm/server';
import { questionIn, scriptedPipeline } from '../devkit/scripted-pipeline';
import { createWorkers } from '../workers/create-workers';

function option(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : fallback;
}

interface SpiderQuestion {
  db_id: string;
  question: string;
  query: string;
}

async function main(): Promise<void> {
  Runtime.install({ logger: new DefaultLogger('ERROR') });
  const limit = Number(option('limit', '100'));
  const presets = option('presets', PRESET_NAMES.join(',')).split(',');
  const root = datasetsRoot(process.env);
  const all = require(path.join(root, 'spider', 'dev.json')) as SpiderQuestion[];
  // Evenly spaced over the file, so every database size is represented.
  const step = Math.max(1, Math.floor(all.length / limit));
  const questions = all
    .filter((q) => q.db_id !== 'wta_1')
    .filter((_, i) => i % step === 0)
    .slice(0, limit);
  const databaseOf = (q: SpiderQuestion) => path.join(root, 'spider', 'database', q.db_id, `${q.db_id}.sqlite`);

  const env = await startBenchTemporal();
  const code = await bundleBenchWorkflows();
  const llm = await startScriptedLlm({ rules: scriptedPipeline(new Map(questions.map((q) => [q.question, q.query]))) });
  const encoder = getEncoding('o200k_base');
  const lines: [string, string | number][] = [['questions', questions.length]];
  try {
    for (const preset of presets) {
      const home = mkdtempSync(path.join(os.tmpdir(), `decodex-bench-tokens-${preset}-`));
      const store = openSqliteArtifactStore(path.join(home, 'artifacts.sqlite'));
      const databases = new DatabaseRegistry((spec) => openTargetDatabase(spec));
      const vectors = new EmbeddedVectorStore(path.join(home, 'vectors'));
      const queuePrefix = `${preset}.`;
      const connection = await NativeConnection.connect({ address: env.address });
      const llmService = createLlmService({
        config: loadLlmConfig({ DECODEX_LLM_BASE_URL: llm.baseUrl, DECODEX_LLM_MODEL: 'scripted', DECODEX_LLM_API_KEY: 'k' }),
        store,
      });
      const workers = await createWorkers({
        connection,
        namespace: 'default',
        queues: ALL_TASK_QUEUES,
        queuePrefix,
        deps: { databases, llm: llmService, artifacts: store, embedders: indexEmbeddersFromEnv(process.env), vectors },
        workflowBundle: { code },
      });
      const running = workers.map((w) => w.run());
      const client = await DecodexClient.connect({ address: env.address, queuePrefix });
      const from = llm.requests.length;
      let calls = 0;
      try {
        // Questions of one database one after another (its first question prepares it), databases side by side.
        const byDatabase = new Map<string, SpiderQuestion[]>();
        for (const q of questions) byDatabase.set(q.db_id, [...(byDatabase.get(q.db_id) ?? []), q]);
        await mapWithConcurrency([...byDatabase.values()], 4, async (group) => {
          for (const q of group) {
            const { result } = await client.ask({ question: q.question, database: databaseOf(q), preset });
            calls += result.usage.llmCalls;
          }
        });
      } finally {
        await client.close();
        for (const w of workers) w.shutdown();
        await Promise.all(running);
        await connection.close();
        await vectors.close();
        await databases.closeAll();
        await store.close();
      }
      const byRole = new Map<string, number>();
      let total = 0;
      for (const r of llm.requests.slice(from)) {
        if (r.api !== 'chat' || !r.prompt || !questionIn(r.prompt.user)) continue;
        const tokens = encoder.encode(`${r.prompt.system}\n${r.prompt.user}`).length;
        total += tokens;
        byRole.set(r.roleGuess ?? 'unknown', (byRole.get(r.roleGuess ?? 'unknown') ?? 0) + tokens);
      }
      lines.push([`input_tokens_per_question_${preset}`, Math.round(total / questions.length)]);
      lines.push([`llm_calls_per_question_${preset}`, (calls / questions.length).toFixed(2)]);
      for (const [role, tokens] of [...byRole.entries()].sort())
        lines.push([`input_tokens_per_question_${preset}_${role}`, Math.round(tokens / questions.length)]);
      llm.requests.splice(0);
    }
  } finally {
    await llm.close();
    await env.teardown();
  }
  for (const [name, value] of lines) console.log(`${name}: ${value}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
