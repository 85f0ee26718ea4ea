import type { JsonSchema } from './json-schema';

/** One chat message sent to a model. */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface CompletionRequest {
  model: string;
  messages: ChatMessage[];
  temperature: number;
  maxTokens: number;
  /** Ask the provider for a JSON object (where it supports that); validation happens anyway. */
  json?: boolean;
  /** The answer's schema, for providers that can constrain decoding to it (local); validation happens anyway. */
  schema?: JsonSchema;
}

export interface TokenUsage {
  promptTokens: number;
  completionTokens: number;
  /**
   * Of promptTokens, those the runtime did not evaluate again because the previous call's prompt
   * began the same way (a local model's kept prefix; OpenAI calls these cached tokens).
   */
  reusedPromptTokens?: number;
  /**
   * Of completionTokens, those a local model took from a draft it verified in a forward pass it
   * ran anyway (DECODEX_LLM_LOCAL_DRAFT): generated without a pass of their own.
   */
  draftedTokens?: number;
  /**
   * Of completionTokens, the share of forward passes other generations of the same local model
   * decoded in with them (two decoding together: half of each one's tokens; local/shared-passes.ts).
   */
  batchedTokens?: number;
}

export interface Completion {
  text: string;
  usage: TokenUsage;
  /**
   * Set when the answer did not end by itself: `length`, it reached the token cap; `repetition`,
   * the local model was stopped in a loop (see local/degenerate-repetition.ts). The text is then
   * cut off, and a schema's JSON is likely unfinished.
   */
  cutOff?: 'length' | 'repetition';
}

/**
 * One LLM API (OpenAI-compatible, Anthropic, a local GGUF model). A provider makes exactly one
 * HTTP call (or one local generation) per `complete` and never retries by itself: retries
 * belong to Temporal's retry policy, so they are visible in the Web UI. Errors are thrown as
 * `LlmError` (see errors.ts) with a class.
 */
export interface LlmProvider {
  readonly name: string;
  complete(request: CompletionRequest): Promise<Completion>;
}
