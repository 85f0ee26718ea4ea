import type { LlmCallRequest, LlmService } from '../../activities/llm/llm-service';

/**
 * An LLM service for prompt tests: it answers with the given texts in turn (parsed as the value
 * when the call has a schema), keeps every request it was asked, and reports the SQL format and
 * prompt layout it is given, as a configured service would for each role.
 */
export function answeringService(answers: string[], settings: Pick<LlmService, 'sqlFormat' | 'promptLayout'>): LlmService & { asked: LlmCallRequest[] } {
  const asked: LlmCallRequest[] = [];
  return {
    asked,
    ...settings,
    async call(request) {
      asked.push(request);
      const text = answers[asked.length - 1] ?? '';
      const record = {
        role: request.role,
        model: 'm',
        provider: 'openai' as const,
        promptTokens: 10,
        completionTokens: 5,
        latencyMs: 1,
        cacheHit: false,
        attempts: 1,
      };
      return { text, ...(request.schema ? { value: JSON.parse(text) } : {}), record };
    },
  };
}
