import type { LlmCallUsage } from '../../core/usage';
import type { JsonSchema } from '../llm/json-schema';
import type { LlmService } from '../llm/llm-service';
import { toActivityFailure } from '../llm/errors';
import { renderPrompt } from '../prompts/render-prompt';

export interface GenerateSqlInput {
  question: string;
  evidence?: string;
  dialect: string;
  schemaDdl: string;
}

export interface GenerateSqlOutput {
  sql: string;
  usage: LlmCallUsage;
}

const SQL_ANSWER_SCHEMA: JsonSchema = {
  type: 'object',
  properties: { sql: { type: 'string' } },
  required: ['sql'],
};

/** Generation activities run on the `llm` queue: their cost is the model call. */
export function createGenerationActivities(llm: LlmService) {
  return {
    async generateSql(input: GenerateSqlInput): Promise<GenerateSqlOutput> {
      const prompt = renderPrompt('generate-sql', {
        dialect: input.dialect,
        schema: input.schemaDdl,
        evidence: input.evidence ? `Evidence: ${input.evidence}\n` : '',
        question: input.question,
      });
      const answer = await llm
        .call<{ sql: string }>({ role: prompt.role, messages: prompt.messages, schema: SQL_ANSWER_SCHEMA })
        .catch((err: unknown) => {
          throw toActivityFailure(err);
        });
      const { role, model, promptTokens, completionTokens, latencyMs, cacheHit } = answer.record;
      return { sql: answer.value!.sql.trim(), usage: { role, model, promptTokens, completionTokens, latencyMs, cacheHit } };
    },
  };
}
