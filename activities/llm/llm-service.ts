import type { LlmCallUsage } from '../../core/usage';
import type { ArtifactStore } from '../artifacts/artifact-store';
import { LlmError } from './errors';
import type { JsonSchema } from './json-schema';
import { createLlmCache, llmCacheKey } from './llm-cache';
import { roleEnvVar, settingsForRole, type LlmConfig, type LlmSettings, type ProviderName } from './llm-config';
import type { ChatMessage, Completion, LlmProvider, TokenUsage } from './llm-provider';
import { providerForSettings } from './provider-for-settings';
import type { LocalRuntimeOptions } from './local/local-llm-config';
import { parseStructured } from './structured-output';

export interface LlmCallRequest {
  /** Which configured model answers (generator, judger, decomposer, ...). */
  role: string;
  messages: ChatMessage[];
  /** When given, the answer must be JSON valid against it; `value` then holds the parsed JSON. */
  schema?: JsonSchema;
  /** Re-asks after an answer that fails the schema; default 2. */
  maxRepairAttempts?: number;
  /** Sampling temperature of this call, in place of the role's (it is part of the cache key like the role's). */
  temperature?: number;
}

/** The record of one call, as it goes into traces and usage totals. */
export interface LlmCallRecord extends LlmCallUsage {
  provider: ProviderName;
  /** HTTP requests made (1 + repairs); 0 for a cache hit. */
  attempts: number;
}

export interface LlmCallResult<T = unknown> {
  text: string;
  value?: T;
  record: LlmCallRecord;
}

export interface LlmService {
  call<T = unknown>(request: LlmCallRequest): Promise<LlmCallResult<T>>;
}

export interface LlmServiceOptions {
  config: LlmConfig;
  store: ArtifactStore;
  /** Builds the client for a role's settings (local ones run with `config.local`); tests may substitute one. */
  providerFor?: (settings: LlmSettings, local: LocalRuntimeOptions) => LlmProvider;
  /** Clock for latency; injectable for tests. */
  now?: () => number;
}

const DEFAULT_MAX_REPAIR_ATTEMPTS = 2;

function repairInstruction(problems: string[]): string {
  return `Your previous answer does not match the required JSON format:\n${problems.map((p) => `- ${p}`).join('\n')}\nAnswer again with only the corrected JSON.`;
}

/** One answer that passed validation (or needed none), with what it cost to get it. */
interface Answer {
  text: string;
  value?: unknown;
  usage: TokenUsage;
  attempts: number;
}

function truncatedAnswer(role: string, settings: LlmSettings, completion: Completion, usage: TokenUsage, attempts: number): LlmError {
  const why =
    completion.cutOff === 'repetition'
      ? `was stopped repeating itself after ${completion.usage.completionTokens} tokens`
      : `reached its ${settings.maxTokens}-token cap`;
  const tail = completion.text.length > 60 ? `...${completion.text.slice(-60)}` : completion.text;
  return new LlmError(
    'truncated',
    `the "${role}" model "${settings.model}" ${why} before its JSON answer was complete ("${tail}"); ` +
      `raise DECODEX_LLM_MAX_TOKENS if the answer is long, or configure a stronger model with ${roleEnvVar(role, 'model')}`,
    { cutOff: completion.cutOff, attempts, role, model: settings.model, ...usage },
  );
}

export function createLlmService({ config, store, providerFor = providerForSettings, now = Date.now }: LlmServiceOptions): LlmService {
  const cache = createLlmCache(store);
  /**
   * Generations under way in this process, by cache key. An activity attempt that timed out
   * (its heartbeats late on a loaded host) keeps generating: Temporal retries it, often on this
   * same worker, while the first is still running. The retry joins that generation instead of
   * asking the model again (a local model would run both at once on the same CPUs), and gets it
   * from the cache once it is stored: the answer is saved by the generation itself, whether or
   * not the attempt that started it is still waiting.
   */
  const inFlight = new Map<string, Promise<Answer>>();
  // One client per endpoint + key + timeout: SDK clients keep connection pools worth reusing.
  const providers = new Map<string, LlmProvider>();
  function providerOf(settings: LlmSettings): LlmProvider {
    const id = JSON.stringify([settings.provider, settings.baseUrl, settings.apiKey, settings.timeoutMs]);
    let provider = providers.get(id);
    if (!provider) providers.set(id, (provider = providerFor(settings, config.local)));
    return provider;
  }

  /** Asks, and re-asks with the validation problems quoted, until the answer fits the schema. */
  async function ask(settings: LlmSettings, request: LlmCallRequest): Promise<Answer> {
    const maxRepairs = request.maxRepairAttempts ?? DEFAULT_MAX_REPAIR_ATTEMPTS;
    if (!Number.isInteger(maxRepairs) || maxRepairs < 0) throw new LlmError('config', `maxRepairAttempts must be a non-negative integer, got ${maxRepairs}`);
    const provider = providerOf(settings);
    const usage: TokenUsage = { promptTokens: 0, completionTokens: 0 };
    const messages = [...request.messages];
    let problems: string[] = [];
    for (let attempt = 1; attempt <= maxRepairs + 1; attempt++) {
      const completion: Completion = await provider.complete({
        model: settings.model,
        messages: [...messages],
        temperature: settings.temperature,
        maxTokens: settings.maxTokens,
        json: request.schema?.type === 'object',
        schema: request.schema,
      });
      usage.promptTokens += completion.usage.promptTokens;
      usage.completionTokens += completion.usage.completionTokens;
      if (completion.usage.reusedPromptTokens) usage.reusedPromptTokens = (usage.reusedPromptTokens ?? 0) + completion.usage.reusedPromptTokens;
      if (!request.schema) return { text: completion.text, usage, attempts: attempt };
      const parsed = parseStructured(completion.text, request.schema);
      if (parsed.ok) return { text: completion.text, value: parsed.value, usage, attempts: attempt };
      // A cut-off answer is no schema mistake to repair: asked again, the model loops or runs
      // out of tokens the same way (and the repair prompt is longer still).
      if (completion.cutOff) throw truncatedAnswer(request.role, settings, completion, usage, attempt);
      problems = parsed.problems;
      messages.push({ role: 'assistant', content: completion.text }, { role: 'user', content: repairInstruction(problems) });
    }
    throw new LlmError(
      'malformed',
      `the "${request.role}" model "${settings.model}" answered outside the JSON schema ${maxRepairs + 1} times (last problems: ${problems.join('; ')}); ` +
        `check the role's prompt template and schema, or configure a stronger model with ${roleEnvVar(request.role, 'model')}`,
      { problems, attempts: maxRepairs + 1, role: request.role, model: settings.model, ...usage },
    );
  }

  return {
    async call<T = unknown>(request: LlmCallRequest): Promise<LlmCallResult<T>> {
      const startedAt = now();
      const configured = settingsForRole(config, request.role);
      const settings = request.temperature === undefined ? configured : { ...configured, temperature: request.temperature };
      const key = llmCacheKey({ settings, messages: request.messages, schema: request.schema });
      const record = (usage: TokenUsage, attempts: number, cacheHit: boolean): LlmCallRecord => ({
        role: request.role,
        provider: settings.provider,
        model: settings.model,
        promptTokens: usage.promptTokens,
        completionTokens: usage.completionTokens,
        ...(usage.reusedPromptTokens ? { reusedPromptTokens: usage.reusedPromptTokens } : {}),
        latencyMs: now() - startedAt,
        cacheHit,
        attempts,
      });

      const cached = await cache.lookup(key);
      if (cached) {
        const parsed = request.schema ? parseStructured<T>(cached.text, request.schema) : undefined;
        // Only valid answers are cached, so an invalid entry means the validator changed: ask again.
        if (!parsed || parsed.ok) {
          return { text: cached.text, ...(parsed?.ok ? { value: parsed.value } : {}), record: record({ promptTokens: 0, completionTokens: 0 }, 0, true) };
        }
      }

      let generation = inFlight.get(key);
      const joined = generation !== undefined;
      if (!generation) {
        generation = ask(settings, request)
          .then(async (answer) => {
            await cache.save(key, { text: answer.text, usage: answer.usage, createdAt: new Date(now()).toISOString() });
            return answer;
          })
          .finally(() => inFlight.delete(key));
        inFlight.set(key, generation);
      }
      const answer = await generation;
      return {
        text: answer.text,
        ...(request.schema ? { value: answer.value as T } : {}),
        // A joined call cost nothing more, like a cache hit: the first caller's record counts the tokens.
        record: joined ? record({ promptTokens: 0, completionTokens: 0 }, 0, true) : record(answer.usage, answer.attempts, false),
      };
    },
  };
}
