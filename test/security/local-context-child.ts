/**
 * Run by bad-input.test.ts in a child Node process (jest's sandbox cannot import the ESM-only
 * node-llama-cpp): the real GGUF model, a 512-token context, and a prompt of some 20 KB. Prints
 * one JSON line: how the call ended (an LlmError's kind, message and details, or the answer).
 */
import { LlmError } from '../../activities/llm/errors';
import { TINY_TEST_MODEL } from '../../activities/llm/local/local-llm-config';
import { createLocalProvider } from '../../activities/llm/local/local-provider';
import { disposeLocalModels } from '../../activities/llm/local/model-runtime';

async function main(): Promise<void> {
  const provider = createLocalProvider({ contextSize: 512, threads: 1, sequences: 1, parallel: 1, draft: 'none', timeoutMs: 60_000 });
  const question = `How many singers are on file? ${'Consider every singer of every concert in every stadium. '.repeat(350)}`;
  try {
    const answer = await provider.complete({
      model: TINY_TEST_MODEL,
      messages: [
        { role: 'system', content: 'Write one SQLite query that answers the question.' },
        { role: 'user', content: `CREATE TABLE singer (id INTEGER, name TEXT);\nQuestion: ${question}` },
      ],
      temperature: 0,
      maxTokens: 64,
    });
    console.log(JSON.stringify({ answered: answer.text, usage: answer.usage }));
  } catch (err) {
    if (!(err instanceof LlmError)) throw err;
    console.log(JSON.stringify({ kind: err.kind, message: err.message, details: err.details, retryable: err.retryable }));
  } finally {
    await disposeLocalModels();
  }
}

void main();
