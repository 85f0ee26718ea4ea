import type { LlmCallUsage } from '../../core/usage';
import type { PromptAnswers } from '../../core/prompts/prompt-answers';
import type { PromptName } from '../../core/prompts/prompt-catalog';
import { inPromptLayout } from './prompt-layout';
import { renderPrompt } from './render-prompt';
import { toActivityFailure } from '../llm/errors';
import type { JsonSchema } from '../llm/json-schema';
import type { LlmCallRecord, LlmService } from '../llm/llm-service';
import { inSqlFormat, writesSql } from './sql-answer-format';

export interface ModelAnswer<T> {
  value: T;
  usage: LlmCallUsage;
}

export interface AskOptions {
  /**
   * Narrows the template's schema for this call, e.g. to the ids actually offered: a model can
   * then only answer with ids that exist (a local model's grammar enforces it while decoding).
   */
  narrow?: (schema: JsonSchema) => JsonSchema;
  /** This call's sampling temperature, in place of the role's configured one (a method's published setting, e.g. DecoSearch's decomposer at 0.1). */
  temperature?: number;
}

/** The template's schema with one array property's items limited to the given values. */
export function onlyValues(property: string, values: string[]) {
  return (schema: JsonSchema): JsonSchema => ({
    ...schema,
    properties: { ...schema.properties, [property]: { type: 'array', items: { type: 'string', enum: values }, maxItems: Math.max(1, values.length) } },
  });
}

/**
 * The one path every LLM step takes: render the template with its variables, ask the role's
 * model for an answer valid against the template's schema (the service repairs or re-asks a
 * malformed one), classify any failure for Temporal's retry policy, and return the value with
 * what it cost. The value's type is the template's schema's (core/prompts/prompt-answers.ts).
 */
export async function askModel<P extends PromptName>(
  llm: LlmService,
  template: P,
  vars: Record<string, string>,
  options: AskOptions = {},
): Promise<ModelAnswer<PromptAnswers[P]>> {
  const prompt = renderPrompt(template, vars);
  try {
    const temperature = options.temperature !== undefined ? { temperature: options.temperature } : {};
    const narrowed = options.narrow ? options.narrow(prompt.schema) : prompt.schema;
    // A role that writes SQL answers in its configured format (sql-answer-format.ts).
    const format = writesSql(narrowed) ? (llm.sqlFormat?.(prompt.role) ?? 'json') : 'json';
    const formatted = inSqlFormat(prompt.messages, narrowed, format);
    // Laid out for the role's model after the format, which rewords the instructions (prompt-layout.ts).
    const asked = { ...formatted, messages: inPromptLayout(formatted.messages, prompt.context, llm.promptLayout?.(prompt.role) ?? 'instructions-first') };
    // A free-text SQL answer is re-asked once when it has no query (then the stage's fallback).
    const answerFormat = 'schema' in asked ? { schema: asked.schema } : { text: asked.text, maxRepairAttempts: 1 };
    const answer = await llm.call<PromptAnswers[P]>({ role: prompt.role, messages: asked.messages, ...answerFormat, ...temperature });
    // A call with a schema or a text format always carries its parsed value.
    return { value: answer.value as PromptAnswers[P], usage: callUsage(answer.record) };
  } catch (err) {
    throw toActivityFailure(err);
  }
}

/** The part of a call record that usage accounting keeps (no provider details, no attempts). */
export function callUsage(record: LlmCallRecord): LlmCallUsage {
  const {
    role,
    model,
    promptTokens,
    completionTokens,
    reusedPromptTokens,
    draftedTokens,
    batchedTokens,
    latencyMs,
    cacheHit,
    cachedPromptTokens,
    cachedLatencyMs,
  } = record;
  return {
    role,
    model,
    promptTokens,
    completionTokens,
    ...(reusedPromptTokens ? { reusedPromptTokens } : {}),
    ...(draftedTokens ? { draftedTokens } : {}),
    ...(batchedTokens ? { batchedTokens } : {}),
    latencyMs,
    cacheHit,
    ...(cachedPromptTokens ? { cachedPromptTokens } : {}),
    ...(cachedLatencyMs !== undefined ? { cachedLatencyMs } : {}),
  };
}
