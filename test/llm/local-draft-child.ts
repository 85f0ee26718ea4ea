/**
 * Child process of local-model.test.ts: one copying prompt answered greedily three times by the
 * tiny model, without drafting, with prompt-lookup drafting (DECODEX_LLM_LOCAL_DRAFT=input-lookup)
 * and with a draft model (draft-model; the tiny model drafts for itself, the one other model of the
 * same tokenizer a test machine has), each on its own runtime. Prints each answer's text and usage
 * as a JSON line.
 */
import { createLocalProvider } from '../../activities/llm/local/local-provider';
import { disposeLocalModels } from '../../activities/llm/local/model-runtime';
import type { LocalDraft } from '../../activities/llm/local/local-llm-config';
import { runChildMain } from './child-main';

const TEXT = Array.from({ length: 12 }, (_, i) => `SELECT name_${i}, price_${i} FROM product_${i} WHERE stock_${i} > ${i};`).join('\n');

async function main(): Promise<void> {
  const model = process.env.DECODEX_LLM_LOCAL_MODEL!;
  for (const draft of ['none', 'input-lookup', 'draft-model'] as LocalDraft[]) {
    const drafting = draft === 'draft-model' ? { draft, draftModel: model } : { draft };
    const provider = createLocalProvider({ contextSize: 2048, threads: 1, sequences: 1, parallel: 1, ...drafting, timeoutMs: 120_000 });
    const answer = await provider.complete({
      model,
      messages: [
        { role: 'system', content: 'You copy text exactly, with nothing added.' },
        { role: 'user', content: `Copy these lines:\n${TEXT}` },
      ],
      temperature: 0,
      maxTokens: 120,
    });
    console.log(JSON.stringify({ draft, text: answer.text, usage: answer.usage }));
  }
  await disposeLocalModels();
}

runChildMain(main);
