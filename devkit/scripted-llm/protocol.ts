/**
 * The wire formats the scripted LLM speaks: reading a prompt out of an OpenAI chat request or
 * an Anthropic messages request, and writing answers and errors in each API's shape (so the
 * real SDKs parse them exactly as they would parse the real services' answers).
 */

export type Api = 'openai' | 'anthropic';

/** What a script rule sees of a request. */
export interface ScriptPrompt {
  /** System messages, joined by blank lines. */
  system: string;
  /**
   * The first user message: the task as the prompt template rendered it. Later turns (a
   * repair re-ask quoting validation problems) are only in `all`, so a rule keeps matching
   * the same task and can tell a re-ask by looking at `all`.
   */
  user: string;
  /** Every message (system, user, assistant) in order, joined by blank lines. */
  all: string;
  model: string;
}

type Message = { role: string; content: unknown };

/** Content is a string or a list of parts/blocks ({type:'text', text}). */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content.map((part) => (part && typeof part === 'object' && typeof part.text === 'string' ? part.text : '')).join('');
  }
  return '';
}

export function promptOf(api: Api, body: Record<string, unknown>): ScriptPrompt {
  const messages = (Array.isArray(body.messages) ? body.messages : []) as Message[];
  const all: Message[] = api === 'anthropic' && body.system !== undefined ? [{ role: 'system', content: body.system }, ...messages] : messages;
  const join = (list: Message[]) => list.map((m) => contentText(m.content)).join('\n\n');
  const firstUser = all.find((m) => m.role === 'user');
  const system = join(all.filter((m) => m.role === 'system'));
  const user = firstUser ? contentText(firstUser.content) : '';
  return { system, user, all: join(all), model: String(body.model ?? '') };
}

/** Deterministic token count: whitespace-separated words. */
export function countTokens(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}

/**
 * The API's answer. An answer longer than the request's `maxTokens` is cut there and says so
 * (`finish_reason: length`, `stop_reason: max_tokens`), as a real model's would be.
 */
export function completionBody(api: Api, id: number, prompt: ScriptPrompt, whole: string, maxTokens?: number): object {
  const promptTokens = countTokens(prompt.all);
  const cut = maxTokens !== undefined && countTokens(whole) > maxTokens;
  const text = cut ? firstTokens(whole, maxTokens) : whole;
  const completionTokens = countTokens(text);
  if (api === 'anthropic') {
    return {
      id: `msg_scripted_${id}`,
      type: 'message',
      role: 'assistant',
      model: prompt.model,
      content: [{ type: 'text', text }],
      stop_reason: cut ? 'max_tokens' : 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: promptTokens, output_tokens: completionTokens },
    };
  }
  return {
    id: `chatcmpl-scripted-${id}`,
    object: 'chat.completion',
    created: 0,
    model: prompt.model,
    choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: cut ? 'length' : 'stop', logprobs: null }],
    usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens },
  };
}

/** The text up to the end of its `count`-th token (tokens as countTokens counts them). */
function firstTokens(text: string, count: number): string {
  const ends = [...text.matchAll(/\S+/g)].map((m) => m.index + m[0].length);
  return count <= 0 ? '' : text.slice(0, ends[count - 1]);
}

const ERROR_TYPES: Record<number, { openai: string; anthropic: string }> = {
  400: { openai: 'invalid_request_error', anthropic: 'invalid_request_error' },
  401: { openai: 'invalid_api_key', anthropic: 'authentication_error' },
  404: { openai: 'model_not_found', anthropic: 'not_found_error' },
  429: { openai: 'rate_limit_exceeded', anthropic: 'rate_limit_error' },
  500: { openai: 'server_error', anthropic: 'api_error' },
};

export function errorBody(api: Api, status: number, message: string): object {
  const type = ERROR_TYPES[status] ?? ERROR_TYPES[500];
  if (api === 'anthropic') return { type: 'error', error: { type: type.anthropic, message } };
  return { error: { message, type: type.openai, code: type.openai, param: null } };
}
