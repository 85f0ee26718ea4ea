/**
 * Run by local-model.test.ts in a child Node process (jest's sandbox cannot import the ESM-only
 * node-llama-cpp): the real GGUF model given by DECODEX_LLM_LOCAL_MODEL, one sequence, three
 * calls. The first two share a long system prompt and differ in the question; the third shares
 * nothing with the second. Prints one JSON line per call with the usage the provider reported
 * and what the runtime's token meter counted as evaluated.
 */
import { createLocalProvider } from '../../activities/llm/local/local-provider';
import { disposeLocalModels, loadLocalModel } from '../../activities/llm/local/model-runtime';
import { runChildMain } from './child-main';

const RULES = Array.from({ length: 40 }, (_, i) => `Rule ${i + 1}: columns of table t${i} are named c${i}_a and c${i}_b.`).join('\n');

async function main(): Promise<void> {
  const model = process.env.DECODEX_LLM_LOCAL_MODEL!;
  const runtime = { contextSize: 2048, threads: 1, sequences: 1, parallel: 1, draft: 'none' as const };
  const provider = createLocalProvider({ ...runtime, timeoutMs: 120_000 });
  const local = await loadLocalModel(model, runtime);
  const ask = async (label: string, system: string, user: string) => {
    // The runtime's own count of evaluated input tokens, read from the pool's one sequence.
    const totals = () => local.sequences.use(async (s) => s.tokenMeter.usedInputTokens);
    const before = await totals();
    const answer = await provider.complete({
      model,
      messages: [
        { role: 'system', content: system },
        { role: 'user', content: user },
      ],
      temperature: 0,
      maxTokens: 8,
    });
    const evaluated = (await totals()) - before;
    console.log(JSON.stringify({ label, usage: answer.usage, evaluated }));
  };
  await ask('first', `You answer questions about a database.\n${RULES}`, 'Question: how many tables are there?');
  await ask('shared prefix', `You answer questions about a database.\n${RULES}`, 'Question: which column holds names?');
  await ask('different', `Translate to French.\n${RULES.split('\n').reverse().join('\n')}`, 'Hello');
  await disposeLocalModels();
}

runChildMain(main);
