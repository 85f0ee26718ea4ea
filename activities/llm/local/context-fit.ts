import { LlmError } from '../errors';

/**
 * Refuses a prompt (counted as the chat template renders it) that would not fit the local model's context with room for the answer. Without
 * this check node-llama-cpp shifts the context, dropping the start of the conversation (the
 * instructions and the schema), and the model answers a prompt nobody wrote: a 100 KB question
 * reached the model as 66 tokens and its SQL was still run.
 */
export function assertPromptFits(sizes: { model: string; promptTokens: number; maxTokens: number; contextTokens: number }): void {
  const needed = sizes.promptTokens + sizes.maxTokens;
  if (needed <= sizes.contextTokens) return;
  throw new LlmError(
    'context_overflow',
    `the prompt is ${sizes.promptTokens} tokens and the answer may take ${sizes.maxTokens}, but the local model ${sizes.model} holds ${sizes.contextTokens} tokens per sequence; ` +
      'raise DECODEX_LLM_LOCAL_CONTEXT_SIZE, or shorten the question or the schema shown (schema linking narrows it)',
    { promptTokens: sizes.promptTokens, maxTokens: sizes.maxTokens, contextTokens: sizes.contextTokens },
  );
}
