import type { PromptLayout } from '../llm/llm-config';
import type { ChatMessage } from '../llm/llm-provider';
import { loadSharedText } from './render-prompt';

/**
 * A prompt about the question laid out for its model. Templates render instructions first: the
 * role's instructions as the system message, then the question's shared context (schema, matched
 * values, notes, hint, question) opening the user message, then the call's own data. A local model
 * then shares a prefix only between calls of one role, since every role's prompt starts with its
 * own instructions.
 *
 * `context-first` opens every role's prompt of a question alike, so the model reads the schema
 * once a question whatever the role: a system message shared by every role
 * (prompts/shared/context-first-system.md), the context as a user turn of its own, a short
 * assistant turn (prompts/shared/context-first-reply.md), and then the role's instructions and
 * the call's data as the last user turn, next to where the answer starts. The instructions are
 * the same words in both layouts (the SQL answer format already applied to them).
 *
 * A prompt without a shared context, or one not of the [system, user] shape templates render,
 * is returned as it is.
 */
export function inPromptLayout(messages: ChatMessage[], context: string | undefined, layout: PromptLayout): ChatMessage[] {
  if (layout === 'instructions-first' || !context || messages.length !== 2) return messages;
  const [system, user] = messages;
  if (system.role !== 'system' || user.role !== 'user' || !user.content.startsWith(context)) return messages;
  const own = user.content.slice(context.length).trim();
  return [
    { role: 'system', content: loadSharedText('context-first-system') },
    { role: 'user', content: context },
    { role: 'assistant', content: loadSharedText('context-first-reply') },
    { role: 'user', content: own ? `${system.content}\n\n${own}` : system.content },
  ];
}
