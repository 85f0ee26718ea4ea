/**
 * Child process of local-model.test.ts: the tiny model answers two prompts at once (two
 * sequences, two generations in parallel), then one alone. Prints each answer's usage and
 * label as a JSON line.
 */
import { createLocalProvider } from '../../activities/llm/local/local-provider';
import { disposeLocalModels } from '../../activities/llm/local/model-runtime';
import { runChildMain } from './child-main';

const lines = (table: string) => Array.from({ length: 10 }, (_, i) => `SELECT name_${i}, price_${i} FROM ${table}_${i} WHERE stock_${i} > ${i};`).join('\n');

async function main(): Promise<void> {
  const model = process.env.DECODEX_LLM_LOCAL_MODEL!;
  const provider = createLocalProvider({ contextSize: 1024, threads: 1, sequences: 2, parallel: 2, draft: 'none', timeoutMs: 120_000 });
  const ask = (table: string) =>
    provider.complete({
      model,
      messages: [
        { role: 'system', content: 'You copy text exactly, with nothing added.' },
        { role: 'user', content: `Copy these lines:\n${lines(table)}` },
      ],
      temperature: 0,
      maxTokens: 60,
    });
  const together = await Promise.all([ask('product'), ask('order')]);
  together.forEach((answer, i) => console.log(JSON.stringify({ label: `together-${i}`, usage: answer.usage })));
  const alone = await ask('invoice');
  console.log(JSON.stringify({ label: 'alone', usage: alone.usage }));
  await disposeLocalModels();
}

runChildMain(main);
