import type { ChatHistoryItem } from 'node-llama-cpp';
import type { ChatMessage } from '../llm-provider';

/**
 * decodex's messages as a node-llama-cpp chat: everything before the last user message is history
 * (system text first, as the chat templates expect it), the last user message is the prompt.
 */
export function toLocalChat(messages: ChatMessage[]): { history: ChatHistoryItem[]; prompt: string } {
  const system = messages
    .filter((m) => m.role === 'system')
    .map((m) => m.content)
    .join('\n\n');
  const turns = messages.filter((m) => m.role !== 'system');
  const last = turns[turns.length - 1];
  const prompt = last?.role === 'user' ? last.content : '';
  const earlier = last?.role === 'user' ? turns.slice(0, -1) : turns;
  const history: ChatHistoryItem[] = system ? [{ type: 'system', text: system }] : [];
  for (const m of earlier) history.push(m.role === 'user' ? { type: 'user', text: m.content } : { type: 'model', response: [m.content] });
  return { history, prompt };
}
