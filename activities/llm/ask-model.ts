import type { LlmCallUsage } from '../../core/usage';
import type { PromptName } from '../../core/prompts/prompt-catalog';
import { renderPrompt } from '../prompts/render-prompt';
import { toActivityFailure } from './errors';
import type { LlmCallRecord, LlmService } from './llm-service';

export interface ModelAnswer<T> {
  value: T;
  usage: LlmCallUsage;
}

/**
 * The one path every LLM step takes: render the template with its variables, ask the role's
 * model for an answer valid against the template's schema (the service repairs or re-asks a
 * malformed one), classify any failure for Temporal's retry policy, and return the value with
 * what it cost.
 */
export async function askModel<T>(llm: LlmService, template: PromptName, vars: Record<string, string>): Promise<ModelAnswer<T>> {
  const prompt = renderPrompt(template, vars);
  try {
    const answer = await llm.call<T>({ role: prompt.role, messages: prompt.messages, schema: prompt.schema });
    return { value: answer.value as T, usage: callUsage(answer.record) };
  } catch (err) {
    throw toActivityFailure(err);
  }
}

/** The part of a call record that usage accounting keeps (no provider details, no attempts). */
export function callUsage(record: LlmCallRecord): LlmCallUsage {
  const { role, model, promptTokens, completionTokens, latencyMs, cacheHit } = record;
  return { role, model, promptTokens, completionTokens, latencyMs, cacheHit };
}
