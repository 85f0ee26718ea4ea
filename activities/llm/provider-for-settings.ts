import { createAnthropicProvider } from './anthropic-provider';
import type { LlmSettings } from './llm-config';
import type { LlmProvider } from './llm-provider';
import { createOpenAiProvider } from './openai-provider';

/** The provider client that serves `settings` (model, temperature, max tokens go per request). */
export function providerForSettings(settings: LlmSettings): LlmProvider {
  const options = { baseUrl: settings.baseUrl, apiKey: settings.apiKey, timeoutMs: settings.timeoutMs };
  return settings.provider === 'anthropic' ? createAnthropicProvider(options) : createOpenAiProvider(options);
}
