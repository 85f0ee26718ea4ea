import { ApplicationFailure } from '@temporalio/common';

/**
 * Why an LLM call failed. The first four are transient (Temporal retries them); the others
 * need a person (a key, a model name, a prompt or schema) and are never retried:
 * - `config`: decodex itself is not configured for the role (no model, bad env value);
 * - `malformed`: the model kept answering outside the schema after repair attempts;
 * - `context_overflow`: the prompt (question, schema, notes) plus the answer's room is larger
 *   than the model's context; the details name both sizes.
 * - `truncated`: the answer was cut off (token cap, or a local model stopped in a loop) before
 *   its JSON was complete; the same prompt at the same settings would be cut off again.
 */
export type LlmErrorKind =
  'rate_limited' | 'server' | 'timeout' | 'connection' | 'auth' | 'bad_request' | 'malformed' | 'truncated' | 'config' | 'context_overflow';

const RETRYABLE: ReadonlySet<LlmErrorKind> = new Set(['rate_limited', 'server', 'timeout', 'connection']);

export class LlmError extends Error {
  readonly retryable: boolean;
  constructor(
    readonly kind: LlmErrorKind,
    message: string,
    /** Extra facts for the trace (HTTP status, validation problems, tokens already spent). */
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'LlmError';
    this.retryable = RETRYABLE.has(kind);
  }
}

/** The ApplicationFailure type of each kind, e.g. `LlmRateLimited`, `LlmAuth`. */
export function failureTypeOf(kind: LlmErrorKind): string {
  return (
    'Llm' +
    kind
      .split('_')
      .map((w) => w[0].toUpperCase() + w.slice(1))
      .join('')
  );
}

/** What the failing call was, so messages can name the endpoint, model and env vars to fix. */
/**
 * The error classes of the SDK that made the call (both SDKs have the same three). The provider
 * passes its own, so this file loads neither SDK: a process loads only the one it talks to.
 */
export interface SdkErrorClasses {
  APIConnectionTimeoutError: abstract new (...args: never[]) => Error;
  APIConnectionError: abstract new (...args: never[]) => Error;
  APIError: abstract new (...args: never[]) => Error & { status?: number | undefined };
}

export interface CallContext {
  provider: 'openai' | 'anthropic';
  sdk: SdkErrorClasses;
  baseUrl: string;
  model: string;
  timeoutMs: number;
  /** How long the call ran before failing. */
  elapsedMs: number;
}

const KEY_VARS = { openai: 'DECODEX_LLM_API_KEY (or OPENAI_API_KEY)', anthropic: 'DECODEX_LLM_API_KEY (or ANTHROPIC_API_KEY)' };

/** The innermost cause's message: undici's "fetch failed" hides ECONNREFUSED one level down. */
function rootCause(err: unknown): string {
  // Duck-typed: errors from another realm (fetch's, in a test sandbox) fail `instanceof Error`.
  type ErrorLike = { message?: unknown; cause?: unknown };
  let e = err as ErrorLike | undefined;
  while (e && typeof e === 'object' && e.cause && typeof e.cause === 'object') e = e.cause as ErrorLike;
  const message = e && typeof e === 'object' ? e.message : e;
  return typeof message === 'string' && message !== '' && message !== '{}' ? message : 'no detail from the HTTP client';
}

/** Socket errors of a connection that closed mid-request or mid-answer (undici's and Node's codes). */
const BROKEN_CONNECTION_CODES = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE', 'UND_ERR_CLOSED']);

/** The answer's body was cut off: fetch throws "terminated" with the socket error as its cause, and no HTTP status. */
function brokenConnection(err: unknown): boolean {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined; e && typeof e === 'object'; e = e.cause as typeof e) {
    if (typeof e.code === 'string' && BROKEN_CONNECTION_CODES.has(e.code)) return true;
  }
  return false;
}

/** The error message the server put in its JSON body, without the SDKs' "400 {...}" wrapping. */
function serverMessage(err: unknown): string {
  const body = (err as { error?: { message?: unknown; error?: { message?: unknown } } }).error;
  const message = body?.error?.message ?? body?.message;
  const text = typeof message === 'string' ? message : err instanceof Error ? err.message : String(err);
  // Our messages continue after it; "...access to it.. Check" reads badly.
  return text.replace(/\.\s*$/, '');
}

/** Turns whatever an SDK threw into an LlmError whose message says what to do about it. */
export function classifyProviderError(err: unknown, ctx: CallContext): LlmError {
  if (err instanceof LlmError) return err;
  const at = ctx.baseUrl;

  const timedOut = err instanceof ctx.sdk.APIConnectionTimeoutError;
  const connectionFailed = err instanceof ctx.sdk.APIConnectionError;
  // Some fetch implementations (and test sandboxes) hide the abort behind a plain connection
  // error; one that happens at the deadline is the timeout firing.
  if (timedOut || (connectionFailed && ctx.elapsedMs >= ctx.timeoutMs)) {
    return new LlmError(
      'timeout',
      `no answer from ${at} (model "${ctx.model}") within ${ctx.timeoutMs} ms; raise DECODEX_LLM_TIMEOUT_MS if the model is slow`,
      { timeoutMs: ctx.timeoutMs },
    );
  }
  if (connectionFailed) {
    return new LlmError('connection', `cannot reach ${at} (${rootCause(err)}); check DECODEX_LLM_BASE_URL and that the server is running`);
  }
  if (brokenConnection(err)) {
    return new LlmError('connection', `the connection to ${at} broke off before the answer was complete (${rootCause(err)}); Temporal retries`);
  }
  const status = err instanceof ctx.sdk.APIError ? err.status : undefined;
  if (typeof status !== 'number') {
    // Not an HTTP answer at all (e.g. the SDK refused the request before sending it).
    return new LlmError('bad_request', `the ${ctx.provider} client refused the call to model "${ctx.model}" at ${at}: ${rootCause(err)}`);
  }
  const serverSays = serverMessage(err);
  const details = { status };
  if (status === 429) {
    const retryAfterMs = retryAfterOf(err);
    return new LlmError(
      'rate_limited',
      `${at} is rate-limiting requests (HTTP 429): ${serverSays}. Temporal retries${retryAfterMs === undefined ? '' : ` after the ${retryAfterMs} ms the server asked for`}; lower the llm worker's concurrency if this persists`,
      retryAfterMs === undefined ? details : { ...details, retryAfterMs },
    );
  }
  if (status >= 500) return new LlmError('server', `${at} failed with HTTP ${status}: ${serverSays}`, details);
  if (status === 408) return new LlmError('timeout', `${at} timed out the request (HTTP 408): ${serverSays}`, details);
  if (status === 401 || status === 403) {
    return new LlmError('auth', `the API key in ${KEY_VARS[ctx.provider]} was rejected by ${at} (HTTP ${status}): ${serverSays}. Set a valid key`, details);
  }
  const overflow = contextOverflowOf(status, serverSays);
  if (overflow) {
    return new LlmError('context_overflow', `the prompt does not fit the context of model "${ctx.model}" at ${at} (HTTP ${status}): ${serverSays}`, {
      ...details,
      ...overflow,
    });
  }
  // Servers answer an unknown model with 404 (OpenAI, vLLM, Ollama) or a 400 that names it.
  const modelHint =
    status === 404 || /model/i.test(serverSays)
      ? '. Check the model name (DECODEX_LLM_MODEL or DECODEX_LLM_<ROLE>_MODEL) and that this endpoint serves it'
      : '';
  return new LlmError('bad_request', `${at} rejected the request for model "${ctx.model}" (HTTP ${status}): ${serverSays}${modelHint}`, details);
}

/** A server's Retry-After can be anything; past this the retry policy's own backoff is used. */
const MAX_RETRY_AFTER_MS = 60_000;

/** The wait a 429 asks for (`retry-after-ms`, or `retry-after` in seconds or as a date), when sane. */
function retryAfterOf(err: unknown): number | undefined {
  const headers = (err as { headers?: { get?: (name: string) => string | null } }).headers;
  const ms = Number(headers?.get?.('retry-after-ms') ?? NaN);
  const after = headers?.get?.('retry-after') ?? null;
  const seconds = after === null ? NaN : Number(after);
  const fromDate = after === null || !Number.isNaN(seconds) ? NaN : Date.parse(after) - Date.now();
  const wait = [ms, seconds * 1000, fromDate].find((v) => Number.isFinite(v) && v >= 0);
  return wait === undefined || wait > MAX_RETRY_AFTER_MS ? undefined : Math.round(wait);
}

/**
 * Whether an HTTP error says the prompt is longer than the model's context, as OpenAI
 * ("maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens"), vLLM
 * ("... you requested 5000 tokens (4500 in the messages, 500 in the completion)"), llama.cpp's
 * server ("exceeds the available context size") and Anthropic ("prompt is too long: 210000 tokens
 * > 200000 maximum") word it; with the sizes when the message gives them.
 */
function contextOverflowOf(status: number, message: string): { contextTokens?: number; requestedTokens?: number } | null {
  if (status !== 400 && status !== 413) return null;
  if (!/context[ _](length|window|size)|maximum context|prompt is too long|too many tokens|context_length_exceeded/i.test(message)) return null;
  const context = /maximum context length is (\d+)|(?:context size|context window)[^\d]{0,20}(\d+)|> ?(\d+) maximum/i.exec(message);
  const requested = /resulted in (\d+)|requested (\d+)|too long: (\d+)|prompt has (\d+)/i.exec(message);
  const first = (m: RegExpExecArray | null) => (m ? Number(m.slice(1).find((g) => g !== undefined)) : undefined);
  return {
    ...(first(context) !== undefined ? { contextTokens: first(context) } : {}),
    ...(first(requested) !== undefined ? { requestedTokens: first(requested) } : {}),
  };
}

/**
 * The Temporal view of an error thrown inside an LLM activity: an LlmError becomes an
 * ApplicationFailure whose retryability follows its kind (so retry policies need no list of
 * error types); anything else is passed through unchanged for Temporal's default handling.
 */
export function toActivityFailure(err: unknown): Error {
  if (!(err instanceof LlmError)) return err instanceof Error ? err : new Error(String(err));
  const type = failureTypeOf(err.kind);
  // A 429 that says when to come back is retried then, not on the policy's schedule.
  const retryAfterMs = err.details.retryAfterMs;
  if (err.retryable && typeof retryAfterMs === 'number') {
    return ApplicationFailure.create({ message: err.message, type, details: [err.details], nonRetryable: false, nextRetryDelay: retryAfterMs });
  }
  return err.retryable ? ApplicationFailure.retryable(err.message, type, err.details) : ApplicationFailure.nonRetryable(err.message, type, err.details);
}
