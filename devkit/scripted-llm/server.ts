import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_SLOW_MS, faultPicker, type FaultKind, type FaultOptions } from './faults';
import { embeddingToBase64, hashEmbedding } from './hash-embedding';
import { completionBody, countTokens, errorBody, promptOf, type Api, type ScriptPrompt } from './protocol';

/**
 * A scripted stand-in for an LLM service, for tests only (never the product's answer to a
 * user). It speaks the real HTTP protocols on loopback, so the real `openai` and
 * `@anthropic-ai/sdk` clients, their error classes and decodex's error handling are exercised:
 * - POST /v1/chat/completions (OpenAI, non-streaming), POST /v1/embeddings (OpenAI),
 *   POST /v1/messages (Anthropic);
 * - answers come from rules (first match wins; none matching is a 400 naming the prompt);
 * - key `bad-key` is rejected with 401; a model outside `models` (when given) gets 404;
 * - faults (429, 500, slow, malformed JSON) are injected at a rate by a seeded PRNG.
 */

export type { FaultKind, FaultOptions } from './faults';
export type { ScriptPrompt } from './protocol';

export interface ScriptRule {
  /** Also recorded as the request's role guess, so name rules after the role they answer. */
  name: string;
  when: (prompt: ScriptPrompt) => boolean;
  /** The answer's text; a promise lets a test hold an answer back until it is ready (a worker killed mid-call). */
  reply: (prompt: ScriptPrompt) => string | Promise<string>;
}

export interface ScriptedLlmOptions {
  rules?: ScriptRule[];
  faults?: FaultOptions;
  /** Dimension of /v1/embeddings vectors; default 64. */
  embeddingDim?: number;
  /** Models that exist; any other gets 404 like an unknown model. Default: every model exists. */
  models?: string[];
  /**
   * The model's context in (scripted) tokens: a prompt that does not fit with its `max_tokens` is
   * refused with HTTP 400 in vLLM's words, as a real server refuses it. Default: unlimited.
   */
  contextTokens?: number;
  /** Every completion is answered after this long, like a real model's generation time (benchmarks). */
  latencyMs?: number;
}

export interface RecordedRequest {
  path: string;
  api: 'chat' | 'messages' | 'embeddings' | 'other';
  model: string | null;
  /** Name of the rule that answered (rules are written per role), null when none did. */
  roleGuess: string | null;
  fault: FaultKind | null;
  /** HTTP status sent (0 while the answer is pending, or when the client left first). */
  status: number;
  prompt?: ScriptPrompt;
  /** The parsed JSON body, for assertions on parameters (temperature, response_format, ...). */
  body?: Record<string, unknown>;
  /** When the request arrived (epoch ms). */
  arrivedAt: number;
  /** From the request's arrival to the end of its answer (0 while pending). */
  elapsedMs: number;
}

export interface ScriptedLlm {
  /** For the openai SDK: http://127.0.0.1:PORT/v1 */
  baseUrl: string;
  /** For @anthropic-ai/sdk: http://127.0.0.1:PORT (the SDK appends /v1/messages). */
  anthropicBaseUrl: string;
  requests: RecordedRequest[];
  setRules(rules: ScriptRule[]): void;
  setFaults(faults: FaultOptions | undefined): void;
  close(): Promise<void>;
}

const BAD_KEY = 'bad-key';
const MALFORMED_TEXT = '{"answer": "this JSON was cut off", "items": [1, 2,';
/** Well-formed JSON that no decodex answer schema accepts (required keys missing). */
const SCHEMA_INVALID_TEXT = '{"unexpected": "a well-formed answer of the wrong shape"}';

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  try {
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    if (body && typeof body === 'object' && !Array.isArray(body)) return body;
  } catch {
    // Reported below as a 400, like a real API would.
  }
  throw new HttpError(400, 'request body is not a JSON object');
}

function send(res: ServerResponse, status: number, body: object, headers: Record<string, string> = {}): void {
  if (res.destroyed || res.writableEnded) return;
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** A 200 whose body stops half-way: the declared length is never reached and the connection drops. */
function sendTruncated(res: ServerResponse, body: object): void {
  if (res.destroyed || res.writableEnded) return;
  const text = Buffer.from(JSON.stringify(body));
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(text.length) });
  res.write(text.subarray(0, Math.floor(text.length / 2)), () => res.destroy());
}

function firstLine(text: string): string {
  return (
    text
      .split('\n')
      .find((line) => line.trim() !== '')
      ?.trim() ?? '(empty prompt)'
  );
}

/**
 * A scripted rule answers a SQL-writing prompt as `{"reasoning", "sql"}` JSON. A prompt in a
 * free-text format (activities/prompts/sql-answer-format.ts) asks for the query as plain SQL or in
 * a ```sql block instead; the stand-in answers as a model told so would, from the same JSON.
 */
function inAskedSqlFormat(text: string, prompt: ScriptPrompt): string {
  const plain = prompt.system.includes('as plain SQL ending with a semicolon');
  const fenced = prompt.system.includes('in one ```sql code block');
  if (!plain && !fenced) return text;
  let answer: { sql?: unknown; reasoning?: unknown };
  try {
    answer = JSON.parse(text) as typeof answer;
  } catch {
    return text; // already free text (a rule that scripts one)
  }
  if (typeof answer?.sql !== 'string') return text;
  return plain ? `${answer.sql.replace(/;\s*$/, '')};` : `${String(answer.reasoning ?? '')}\n\`\`\`sql\n${answer.sql}\n\`\`\``;
}

export async function startScriptedLlm(options: ScriptedLlmOptions = {}): Promise<ScriptedLlm> {
  let rules = options.rules ?? [];
  let faultOptions = options.faults;
  let nextFault = faultPicker(faultOptions);
  const embeddingDim = options.embeddingDim ?? 64;
  const requests: RecordedRequest[] = [];
  const pendingSleeps = new Set<() => void>();
  let sequence = 0;

  /** Waits `ms`, returning early (false) when the client goes away or the server closes. */
  function sleepUnlessGone(ms: number, res: ServerResponse): Promise<boolean> {
    return new Promise((resolve) => {
      const finish = (completed: boolean) => {
        clearTimeout(timer);
        pendingSleeps.delete(cancel);
        res.off('close', cancel);
        resolve(completed);
      };
      const cancel = () => finish(false);
      const timer = setTimeout(() => finish(true), ms);
      pendingSleeps.add(cancel);
      res.on('close', cancel);
    });
  }

  function authRejected(req: IncomingMessage): boolean {
    return req.headers.authorization === `Bearer ${BAD_KEY}` || req.headers['x-api-key'] === BAD_KEY;
  }

  async function handleCompletion(api: Api, body: Record<string, unknown>, record: RecordedRequest, res: ServerResponse) {
    const prompt = promptOf(api, body);
    record.prompt = prompt;
    const fault = record.fault;
    if (fault === '429') throw rateLimited();
    if (fault === '500') throw new HttpError(500, 'internal server error (injected fault)');
    if (fault === 'slow' && !(await sleepUnlessGone(faultOptions?.slowMs ?? DEFAULT_SLOW_MS, res))) return;
    if (options.latencyMs && !(await sleepUnlessGone(options.latencyMs, res))) return;

    const promptTokens = countTokens(prompt.all);
    const requested = Number(body.max_tokens ?? body.max_completion_tokens ?? 0);
    if (options.contextTokens !== undefined && promptTokens + requested > options.contextTokens) {
      throw new HttpError(
        400,
        `This model's maximum context length is ${options.contextTokens} tokens. However, you requested ${promptTokens + requested} tokens ` +
          `(${promptTokens} in the messages, ${requested} in the completion). Please reduce the length of the messages or completion.`,
      );
    }
    const rule = rules.find((r) => r.when(prompt));
    if (!rule) {
      throw new HttpError(
        400,
        `scripted LLM: no rule matches the prompt whose user text starts "${firstLine(prompt.user || prompt.all)}" (system: "${firstLine(prompt.system)}")`,
      );
    }
    record.roleGuess = rule.name;
    const text = fault === 'malformed' ? MALFORMED_TEXT : fault === 'schema-invalid' ? SCHEMA_INVALID_TEXT : inAskedSqlFormat(await rule.reply(prompt), prompt);
    record.status = 200;
    const maxTokens = typeof body.max_tokens === 'number' ? body.max_tokens : undefined;
    if (fault === 'truncated') sendTruncated(res, completionBody(api, ++sequence, prompt, text, maxTokens));
    else send(res, 200, completionBody(api, ++sequence, prompt, text, maxTokens));
  }

  function rateLimited(): HttpError {
    return new HttpError(429, 'rate limit reached (injected fault)', { 'retry-after': String(faultOptions?.retryAfterSeconds ?? 1) });
  }

  async function handleEmbeddings(body: Record<string, unknown>, record: RecordedRequest, res: ServerResponse) {
    const input = typeof body.input === 'string' ? [body.input] : body.input;
    if (!Array.isArray(input) || !input.every((x) => typeof x === 'string')) throw new HttpError(400, 'input must be a string or an array of strings');
    if (record.fault === '429') throw rateLimited();
    if (record.fault === '500') throw new HttpError(500, 'internal server error (injected fault)');
    if (record.fault === 'slow' && !(await sleepUnlessGone(faultOptions?.slowMs ?? DEFAULT_SLOW_MS, res))) return;
    // The text faults concern text answers; an embedding is answered normally.
    if (record.fault === 'malformed' || record.fault === 'schema-invalid' || record.fault === 'truncated') record.fault = null;
    const base64 = body.encoding_format === 'base64';
    const data = (input as string[]).map((text, index) => {
      const vector = hashEmbedding(text, embeddingDim);
      return { object: 'embedding', index, embedding: base64 ? embeddingToBase64(vector) : vector };
    });
    const tokens = (input as string[]).reduce((sum, text) => sum + countTokens(text), 0);
    record.status = 200;
    send(res, 200, { object: 'list', model: record.model, data, usage: { prompt_tokens: tokens, total_tokens: tokens } });
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '').split('?')[0];
    const api: Api = path === '/v1/messages' ? 'anthropic' : 'openai';
    const kind: RecordedRequest['api'] =
      path === '/v1/chat/completions' ? 'chat' : path === '/v1/messages' ? 'messages' : path === '/v1/embeddings' ? 'embeddings' : 'other';
    const record: RecordedRequest = { path, api: kind, model: null, roleGuess: null, fault: null, status: 0, arrivedAt: Date.now(), elapsedMs: 0 };
    requests.push(record);
    const arrived = performance.now();
    res.once('close', () => (record.elapsedMs = performance.now() - arrived));
    try {
      if (req.method !== 'POST' || kind === 'other') throw new HttpError(404, `scripted LLM: no endpoint ${req.method} ${path}`);
      const body = await readJson(req);
      record.body = body;
      record.model = typeof body.model === 'string' ? body.model : null;
      if (authRejected(req)) throw new HttpError(401, `Incorrect API key provided: ${BAD_KEY}`);
      if (!record.model) throw new HttpError(400, 'model is required');
      if (options.models && !options.models.includes(record.model)) {
        throw new HttpError(404, `The model \`${record.model}\` does not exist or you do not have access to it.`);
      }
      record.fault = nextFault();
      if (kind === 'embeddings') await handleEmbeddings(body, record, res);
      else await handleCompletion(api, body, record, res);
    } catch (err) {
      const status = err instanceof HttpError ? err.status : 500;
      record.status = status;
      send(res, status, errorBody(api, status, err instanceof Error ? err.message : String(err)), err instanceof HttpError ? err.headers : {});
    }
  }

  const server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;

  return {
    baseUrl: `${origin}/v1`,
    anthropicBaseUrl: origin,
    requests,
    setRules(next) {
      rules = next;
    },
    setFaults(next) {
      faultOptions = next;
      nextFault = faultPicker(next);
    },
    async close() {
      for (const cancel of [...pendingSleeps]) cancel();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
