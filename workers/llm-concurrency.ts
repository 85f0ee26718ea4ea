import { parsePositiveInteger } from '../core/config-values';
import { usesLocalProvider, type LlmConfig } from '../activities/llm/llm-config';
import { DEFAULT_LLM_CONCURRENCY } from './create-workers';

/**
 * How many LLM activities the `llm` worker runs at once: DECODEX_LLM_CONCURRENCY (default 8),
 * but never more than the local model's generations at once (DECODEX_LLM_LOCAL_PARALLEL) when a role runs locally. A CPU model cannot
 * go faster by taking more tasks: extra ones would wait inside their activity with their
 * timeouts running, while another worker (or a later moment) could have served them.
 */
export function llmWorkerConcurrency(config: LlmConfig, env: Record<string, string | undefined>): number {
  const raw = env.DECODEX_LLM_CONCURRENCY;
  const asked = raw ? parsePositiveInteger(raw, 'DECODEX_LLM_CONCURRENCY') : DEFAULT_LLM_CONCURRENCY;
  return usesLocalProvider(config) ? Math.min(asked, config.local.parallel) : asked;
}
