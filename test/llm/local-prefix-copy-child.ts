/**
 * Run by local-model.test.ts in a child Node process (jest's sandbox cannot import the ESM-only
 * node-llama-cpp): the real GGUF model given by DECODEX_LLM_LOCAL_MODEL, two sequences, prefix
 * copying on. One sequence is lent out and holds a long prompt, as a call in the middle of its
 * answer does; meanwhile the provider answers two calls on the other sequence, one that starts
 * like the held prompt and one that does not. Prints one JSON line per call: the usage the
 * provider reported, what the runtime's meter counted as evaluated on that sequence, and whether
 * the lent sequence still held its tokens afterwards.
 */
import type { ChatMessage } from '../../activities/llm/llm-provider';
import { toLocalChat } from '../../activities/llm/local/chat-history';
import { createLocalProvider } from '../../activities/llm/local/local-provider';
import { disposeLocalModels, loadLocalModel } from '../../activities/llm/local/model-runtime';
import { sharedPrefix } from '../../activities/llm/local/prefix-copy';
import { runChildMain } from './child-main';

const RULES = Array.from({ length: 40 }, (_, i) => `Rule ${i + 1}: columns of table t${i} are named c${i}_a and c${i}_b.`).join('\n');
const SYSTEM = `You answer questions about a database.\n${RULES}`;

async function main(): Promise<void> {
  const model = process.env.DECODEX_LLM_LOCAL_MODEL!;
  const runtime = { contextSize: 2048, threads: 1, sequences: 2, parallel: 2, draft: 'none' as const, copyPrefixes: true };
  const provider = createLocalProvider({ ...runtime, timeoutMs: 120_000 });
  const local = await loadLocalModel(model, runtime);
  const messages = (system: string, user: string): ChatMessage[] => [
    { role: 'system', content: system },
    { role: 'user', content: user },
  ];
  const tokensOf = (m: ChatMessage[]) => {
    const { history, prompt } = toLocalChat(m);
    return local.chatTokens([...history, { type: 'user', text: prompt }]);
  };
  const held = messages(SYSTEM, 'Question: how many tables are there?');
  await local.sequences.use(async (busy) => {
    await busy.evaluateWithoutGeneratingNewTokens(tokensOf(held));
    const heldTokens = [...busy.contextTokens];
    const [other] = local.allSequences.filter((s) => s !== busy);
    const ask = async (label: string, m: ChatMessage[]) => {
      const before = other.tokenMeter.usedInputTokens;
      const answer = await provider.complete({ model, messages: m, temperature: 0, maxTokens: 8 });
      console.log(
        JSON.stringify({
          label,
          usage: answer.usage,
          evaluated: other.tokenMeter.usedInputTokens - before,
          sharedWithHeld: sharedPrefix(tokensOf(m), heldTokens),
          heldIntact: sharedPrefix(busy.contextTokens, heldTokens) === heldTokens.length,
        }),
      );
    };
    await ask('shares the held prefix', messages(SYSTEM, 'Question: which column holds names?'));
    await ask('shares nothing', messages(`Translate to French.\n${RULES.split('\n').reverse().join('\n')}`, 'Hello'));
  });
  await disposeLocalModels();
}

runChildMain(main);
