import { createHash } from 'node:crypto';
import { ArtifactLockTimeout, type ArtifactStore } from '../artifacts/artifact-store';
import type { JsonSchema } from './json-schema';
import type { LlmSettings } from './llm-config';
import type { ChatMessage, TokenUsage } from './llm-provider';

export const LLM_CACHE_KIND = 'llm-cache';

/** Everything that decides a completion; nothing else (role, API key, timeout) may enter the key. */
export interface CacheKeyParts {
  settings: Pick<LlmSettings, 'provider' | 'baseUrl' | 'model' | 'temperature' | 'maxTokens'>;
  messages: ChatMessage[];
  schema?: JsonSchema;
}

export interface CachedCompletion {
  /** The answer; for a stored failure, the model's last answer (cut off, or outside the format). */
  text: string;
  /** What producing the answer cost originally (repairs included); a hit costs nothing. */
  usage: TokenUsage;
  /** How long generating it took, repairs included (absent in answers stored before it was kept): a hit reports it, so a replayed run still says what it cost in model time. */
  generationMs?: number;
  createdAt: string;
  /**
   * Present when the model's answer was unusable (cut off, or outside the format after its repairs):
   * the same prompt at the same settings fails the same way, so a replay fails as the original did
   * without asking again (activities/llm/cached-failure.ts).
   */
  failure?: StoredFailure;
}

export interface StoredFailure {
  kind: 'truncated' | 'malformed';
  message: string;
  /** The failure's details as first thrown (role, model, problems, cut-off reason, tokens spent). */
  details: Record<string, unknown>;
  /** Requests the answer took (1 + repairs). */
  attempts: number;
}

/** JSON with object keys sorted, so equal content always hashes equally. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/**
 * The model as the key names it. A local model is its GGUF's file name, not its path: the path
 * is where this checkout keeps `.tools/models`, so keyed by it the same model in another clone
 * (or worktree, or CI's checkout) would replay nothing it carried; `hf:` and URL references to
 * the same file name are the same model. A remote model is its name at its endpoint.
 */
export function cachedModelName(settings: Pick<LlmSettings, 'provider' | 'model'>): string {
  return settings.provider === 'local' ? (settings.model.split(/[\\/]/).pop() ?? settings.model) : settings.model;
}

export function llmCacheKey({ settings, messages, schema }: CacheKeyParts): string {
  const content = {
    provider: settings.provider,
    baseUrl: settings.baseUrl ?? null,
    model: cachedModelName(settings),
    temperature: settings.temperature,
    maxTokens: settings.maxTokens,
    messages: messages.map((m) => ({ role: m.role, content: m.content })),
    schema: schema ?? null,
  };
  return createHash('sha256').update(canonicalJson(content)).digest('hex');
}

/**
 * The content-addressed LLM cache: reruns of the same prompt are reproducible and free.
 * `exclusive` runs a generation while holding the entry's lock in the store, which every worker
 * sharing it respects: a retry of the same call on another worker waits for the first generation
 * and then finds its answer stored, instead of asking the model a second time. A lock held past
 * `waitMs` (its holder stuck or very slow) is given up on and the work runs anyway: a second
 * generation costs less than a failed call.
 */
export function createLlmCache(store: ArtifactStore) {
  return {
    lookup: (key: string) => store.get<CachedCompletion>(LLM_CACHE_KIND, key),
    save: (key: string, entry: CachedCompletion) => store.put(LLM_CACHE_KIND, key, entry),
    exclusive: async <T>(key: string, waitMs: number, work: () => Promise<T>): Promise<T> => {
      try {
        return await store.withLock(`${LLM_CACHE_KIND}:${key}`, waitMs, work);
      } catch (err) {
        if (err instanceof ArtifactLockTimeout) return work();
        throw err;
      }
    },
  };
}

export type LlmCache = ReturnType<typeof createLlmCache>;
