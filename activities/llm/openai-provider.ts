import OpenAI from 'openai';
import { classifyProviderError } from './errors';
import type { Completion, CompletionRequest, LlmProvider } from './llm-provider';

export const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';

export interface OpenAiProviderOptions {
  /** Any OpenAI-compatible endpoint (OpenAI, DeepSeek, vLLM, Ollama, llama.cpp server). */
  baseUrl?: string;
  apiKey?: string;
  timeoutMs: number;
}

/** Chat completions through the `openai` SDK; one HTTP request per call, no SDK retries. */
export function createOpenAiProvider(options: OpenAiProviderOptions): LlmProvider {
  const baseUrl = options.baseUrl ?? OPENAI_DEFAULT_BASE_URL;
  const client = new OpenAI({
    baseURL: baseUrl,
    // Local servers ignore the key, but the SDK refuses to start without one; passing it
    // explicitly also keeps the SDK from reading OPENAI_* env vars behind the config's back.
    apiKey: options.apiKey ?? 'no-key',
    timeout: options.timeoutMs,
    maxRetries: 0,
  });

  return {
    name: 'openai',
    async complete(request: CompletionRequest): Promise<Completion> {
      const startedAt = Date.now();
      try {
        const response = await client.chat.completions.create({
          model: request.model,
          messages: request.messages,
          temperature: request.temperature,
          // max_tokens rather than max_completion_tokens: local OpenAI-compatible servers accept it.
          max_tokens: request.maxTokens,
          ...(request.json ? { response_format: { type: 'json_object' as const } } : {}),
        });
        return {
          text: response.choices[0]?.message?.content ?? '',
          usage: { promptTokens: response.usage?.prompt_tokens ?? 0, completionTokens: response.usage?.completion_tokens ?? 0 },
          ...(response.choices[0]?.finish_reason === 'length' ? { cutOff: 'length' as const } : {}),
        };
      } catch (err) {
        throw classifyProviderError(err, {
          provider: 'openai',
          sdk: OpenAI,
          baseUrl,
          model: request.model,
          timeoutMs: options.timeoutMs,
          elapsedMs: Date.now() - startedAt,
        });
      }
    },
  };
}
