/**
 * Speed of the local LLM provider on this machine: the generator role answers a few questions
 * over the sample database, one after the other, through the real path (prompt template, LLM
 * service, local provider, grammar-constrained decoding). The cache starts empty, so every
 * question is generated. Uses the same configuration as decodex (DECODEX_LLM_LOCAL_* etc.).
 *
 *   npm run bench:local-llm      # name: value lines on stdout
 *
 * tokens_per_second is completion tokens over the time spent in the calls (prompt evaluation
 * included, as a user waits for both); load_seconds is loading the model once, not counted.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openSqliteArtifactStore } from '../activities/artifacts/sqlite-artifact-store';
import { createDatabaseActivities } from '../activities/database/database-activities';
import { DatabaseRegistry } from '../activities/database/database-registry';
import { openTargetDatabase } from '../activities/database/open-database';
import { createGenerationActivities } from '../activities/generation/generation-activities';
import { loadLlmConfig, settingsForRole } from '../activities/llm/llm-config';
import { createLlmService } from '../activities/llm/llm-service';
import { disposeLocalModels, loadLocalModel } from '../activities/llm/local/model-runtime';
import { SAMPLE_QUESTION, ensureSampleDatabase } from '../cli/sample-database';

const QUESTIONS = [SAMPLE_QUESTION, 'How many customers live in London?', 'List the names of products in the hardware category.'];

async function main(): Promise<void> {
  const config = loadLlmConfig(process.env);
  const settings = settingsForRole(config, 'generator');
  if (settings.provider !== 'local') throw new Error(`the generator runs on the ${settings.provider} provider; this benchmark measures the local one (unset DECODEX_LLM_* or set DECODEX_LLM_PROVIDER=local)`);

  const home = mkdtempSync(path.join(os.tmpdir(), 'decodex-bench-local-llm-'));
  const databases = new DatabaseRegistry((spec) => openTargetDatabase(spec));
  const store = openSqliteArtifactStore(path.join(home, 'artifacts.sqlite'));
  try {
    const database = ensureSampleDatabase(home);
    const { dialect } = await createDatabaseActivities(databases).describeDatabase({ database });

    const loadStart = performance.now();
    const model = await loadLocalModel(settings.model, config.local);
    const loadSeconds = (performance.now() - loadStart) / 1000;

    const generation = createGenerationActivities({ llm: createLlmService({ config, store }), databases, store });
    let promptTokens = 0;
    let completionTokens = 0;
    const callsStart = performance.now();
    for (const question of QUESTIONS) {
      const { usage } = await generation.generateSqlDirect({ question, database, dialect, prepared: null, focus: null, grounding: [], notes: [] });
      promptTokens += usage.promptTokens;
      completionTokens += usage.completionTokens;
    }
    const seconds = (performance.now() - callsStart) / 1000;

    const lines: Record<string, string | number> = {
      model: model.name,
      threads: config.local.threads,
      context_size: config.local.contextSize,
      questions: QUESTIONS.length,
      load_seconds: loadSeconds.toFixed(2),
      prompt_tokens: promptTokens,
      completion_tokens: completionTokens,
      tokens_per_second: (completionTokens / seconds).toFixed(2),
      seconds_per_question: (seconds / QUESTIONS.length).toFixed(2),
    };
    for (const [name, value] of Object.entries(lines)) console.log(`${name}: ${value}`);
  } finally {
    await databases.closeAll();
    await store.close();
    await disposeLocalModels();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(`bench:local-llm: ${(err as Error).message ?? err}`);
    process.exit(1);
  },
);
