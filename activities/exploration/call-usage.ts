import type { LlmCallUsage } from '../../core/usage';
import type { LlmCallRecord } from '../llm/llm-service';

/** The part of a call record that usage accounting keeps (no provider details, no attempts). */
export function callUsage(record: LlmCallRecord): LlmCallUsage {
  const { role, model, promptTokens, completionTokens, latencyMs, cacheHit } = record;
  return { role, model, promptTokens, completionTokens, latencyMs, cacheHit };
}
