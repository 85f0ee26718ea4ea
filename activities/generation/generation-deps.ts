import type { LlmService } from '../llm/llm-service';
import type { ContextDeps } from '../prompts/question-context';

/** What the LLM stages of a question need: the model, plus the schema and artifacts behind their prompts. */
export interface QuestionLlmDeps extends ContextDeps {
  llm: LlmService;
}
