import type { LlmSettings } from './llm-config';
import type { LlmProvider } from './llm-provider';
import { createLocalProvider } from './local/local-provider';
import type { LocalRuntimeOptions } from './local/local-llm-config';
import { createOpenAiProvider } from './openai-provider';

/**
 * The provider client that serves `settings` (model, temperature, max tokens go per request).
 * `local` says how this process runs local models (required for the local provider only).
 */
export function providerForSettings(settings: LlmSettings, local?: LocalRuntimeOptions): LlmProvider {
  if (settings.provider === 'local') {
    if (!local) throw new Error('the local provider needs the runtime options of LlmConfig.local');
    return createLocalProvider({ ...local, timeoutMs: settings.timeoutMs });
  }
  const options = { baseUrl: settings.baseUrl, apiKey: settings.apiKey, timeoutMs: settings.timeoutMs };
  if (settings.provider !== 'anthropic') return createOpenAiProvider(options);
  // Required here, not imported: Anthropic's SDK is about 17 MB of a process that never talks to it.
  const { createAnthropicProvider } = require('./anthropic-provider') as typeof import('./anthropic-provider');
  return createAnthropicProvider(options);
}
