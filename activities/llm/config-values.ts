import { LlmError } from './errors';

/** A mistake in decodex's own LLM configuration: never retried, the message names what to set. */
export function configError(message: string): LlmError {
  return new LlmError('config', message);
}
