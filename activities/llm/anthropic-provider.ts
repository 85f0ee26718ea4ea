import Anthropic from '@anthropic-ai/sdk';
import { classifyProviderError } from './errors';
import type { ChatMessage, Completion, CompletionRequest, LlmProvider } from './llm-provider';

export const ANTHROPIC_DEFAULT_BASE_URL = 'https://api.anthropic.com';

export interface AnthropicProviderOptions {
  baseUrl?: string;
  apiKey?: string;
  timeoutMs: number;
}

type Turn = { role: 'user' | 'assistant'; content: string };

/**
 * The Messages API takes the system prompt separately and wants strictly alternating turns
 * starting with the user, so consecutive same-role messages are joined.
 */
function toAnthropicTurns(messages: ChatMessage[]): { system: string; turns: Turn[] } {
  const system = messages
    .filter((m) => m.role === 'system')
    .map((m) => m.content)
    .join('\n\n');
  const turns: Turn[] = [];
  for (const m of messages) {
    if (m.role === 'system') continue;
    const last = turns[turns.length - 1];
    if (last && last.role === m.role) last.content += `\n\n${m.content}`;
    else turns.push({ role: m.role, content: m.content });
  }
  return { system, turns };
}

/** Messages through `@anthropic-ai/sdk`; one HTTP request per call, no SDK retries. */
export function createAnthropicProvider(options: AnthropicProviderOptions): LlmProvider {
  const baseUrl = options.baseUrl ?? ANTHROPIC_DEFAULT_BASE_URL;
  const client = new Anthropic({
    baseURL: baseUrl,
    // Explicit so the SDK never falls back to ANTHROPIC_* env vars behind the config's back.
    apiKey: options.apiKey ?? 'no-key',
    timeout: options.timeoutMs,
    maxRetries: 0,
  });

  return {
    name: 'anthropic',
    async complete(request: CompletionRequest): Promise<Completion> {
      const { system, turns } = toAnthropicTurns(request.messages);
      const startedAt = Date.now();
      try {
        const response = await client.messages.create({
          model: request.model,
          // No temperature: this SDK's Messages API no longer takes one (it was deprecated).
          max_tokens: request.maxTokens,
          messages: turns,
          ...(system ? { system } : {}),
        });
        const text = response.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
        return {
          text,
          usage: { promptTokens: response.usage.input_tokens, completionTokens: response.usage.output_tokens },
          ...(response.stop_reason === 'max_tokens' ? { cutOff: 'length' as const } : {}),
        };
      } catch (err) {
        throw classifyProviderError(err, {
          provider: 'anthropic',
          sdk: Anthropic,
          baseUrl,
          model: request.model,
          timeoutMs: options.timeoutMs,
          elapsedMs: Date.now() - startedAt,
        });
      }
    },
  };
}
