import { parsePositiveInteger } from '../../core/config-values';
import { configError } from './config-values';
import { LOCAL_ENV_PREFIX, loadLocalLlmConfig, type LocalLlmConfig } from './local/local-llm-config';

/** `local` runs a GGUF model in the worker process (node-llama-cpp); the others are HTTP APIs. */
export type ProviderName = 'openai' | 'anthropic' | 'local';
const PROVIDERS: readonly ProviderName[] = ['openai', 'anthropic', 'local'];

/**
 * Everything needed to call one model. `baseUrl` absent means the provider's public API. For the
 * `local` provider, `model` is a GGUF file path or a model URI, and `baseUrl` / `apiKey` are unused.
 */
export interface LlmSettings {
  provider: ProviderName;
  baseUrl?: string;
  apiKey?: string;
  model: string;
  temperature: number;
  maxTokens: number;
  timeoutMs: number;
  /**
   * How a role that writes SQL answers (activities/prompts/sql-answer-format.ts): `plain` (the
   * default, DEFAULT_SQL_FORMAT: only the query, as SQL text cut at its `;`), `json` (a JSON
   * object, query first, as the schema orders it), `json-reasoning-first`, or `fenced` (free
   * text: a short reasoning, then the query in one ```sql block). Roles whose answer is not a
   * query ignore it.
   */
  sqlFormat?: SqlAnswerFormat;
  /**
   * Where a prompt about the question puts the role's instructions (activities/prompts/prompt-layout.ts):
   * `instructions-first` (the default, DEFAULT_PROMPT_LAYOUT: the role's instructions as the system
   * message, then the question's shared context) or `context-first` (one opening shared by every
   * role of a question, then the role's instructions, so a local model reads the schema once a question).
   */
  promptLayout?: PromptLayout;
}

export const SQL_ANSWER_FORMATS = ['json', 'json-reasoning-first', 'fenced', 'plain'] as const;
export type SqlAnswerFormat = (typeof SQL_ANSWER_FORMATS)[number];

/**
 * How SQL is asked for unless configured: as plain SQL. Tuned on Spider train (preset quick, 49
 * questions, Qwen2.5-Coder-1.5B): 0.510 against 0.469 for the JSON object (query first), 0.388
 * fenced, 0.306 reasoning first (README, "Accuracy with the local model").
 */
export const DEFAULT_SQL_FORMAT: SqlAnswerFormat = 'plain';

export const PROMPT_LAYOUTS = ['instructions-first', 'context-first'] as const;
export type PromptLayout = (typeof PROMPT_LAYOUTS)[number];

/**
 * Instructions first unless configured: with the shared context first, Qwen2.5-Coder-1.5B answered
 * 8 of 24 Spider train questions right against 13 of 24 (preset quick, JSON answers, one message
 * holding both); `context-first` (the context in a turn of its own) is not measured yet.
 */
export const DEFAULT_PROMPT_LAYOUT: PromptLayout = 'instructions-first';

/**
 * The model configuration of a worker: settings shared by every role, and per-role overrides
 * (e.g. a cheap model for the judger, a strong one for the generator). Role keys are normalised
 * (see roleKey). Nothing configured at all means the local model for every role.
 */
export interface LlmConfig {
  /** What was set at the shared level (DECODEX_LLM_* and the file's "default"), nothing more. */
  shared: Partial<LlmSettings>;
  /**
   * The shared settings completed with built-in defaults, or null when the shared level names no
   * provider, model, endpoint or key (roles then run the local model unless they name a remote one).
   */
  default: LlmSettings | null;
  roles: Record<string, Partial<LlmSettings>>;
  /** The local provider's default model and runtime (DECODEX_LLM_LOCAL_*). */
  local: LocalLlmConfig;
}

type Env = Record<string, string | undefined>;

// Deterministic answers by default (reruns are comparable and cacheable); an HTTP timeout well
// below the LLM activity's start-to-close timeout so a hung call is retried, not abandoned.
const BUILT_IN = { provider: 'openai' as ProviderName, temperature: 0, maxTokens: 4096, timeoutMs: 120_000 };
// A CPU model writes a few tokens per second: a smaller cap keeps a rambling answer (a small
// model can repeat itself inside a JSON string until the cap) short. The timeout is a ceiling:
// each generation's own deadline follows its prompt's size and the model's measured speed
// (local/generation-deadline.ts), and a long prompt at one thread needs minutes.
const LOCAL_BUILT_IN = { ...BUILT_IN, maxTokens: 512, timeoutMs: 300_000 };

/** The env-var / file field of each setting; the env var is `DECODEX_LLM_[<ROLE>_]<SUFFIX>`. */
const FIELDS = {
  provider: 'PROVIDER',
  baseUrl: 'BASE_URL',
  apiKey: 'API_KEY',
  model: 'MODEL',
  temperature: 'TEMPERATURE',
  maxTokens: 'MAX_TOKENS',
  timeoutMs: 'TIMEOUT_MS',
  sqlFormat: 'SQL_FORMAT',
  promptLayout: 'PROMPT_LAYOUT',
} as const satisfies Record<keyof LlmSettings, string>;
type Field = keyof typeof FIELDS;
const FIELD_NAMES = Object.keys(FIELDS) as Field[];

/** The key var each remote provider falls back to; the local provider needs no key. */
const PROVIDER_KEY_VAR: Partial<Record<ProviderName, string>> = { openai: 'OPENAI_API_KEY', anthropic: 'ANTHROPIC_API_KEY' };

/** `sql-fixer`, `SQL_FIXER` and `sql_fixer` name the same role. */
export function roleKey(role: string): string {
  return role.toLowerCase().replace(/[^a-z0-9]/g, '_');
}

/** The env var that sets one field for one role, e.g. DECODEX_LLM_GENERATOR_MODEL. */
export function roleEnvVar(role: string, field: keyof LlmSettings): string {
  return `DECODEX_LLM_${roleKey(role).toUpperCase()}_${FIELDS[field]}`;
}

function parseField(field: Field, raw: unknown, source: string): LlmSettings[Field] {
  switch (field) {
    case 'provider':
      if (typeof raw === 'string' && (PROVIDERS as readonly string[]).includes(raw)) return raw as ProviderName;
      throw configError(`${source} must be one of ${PROVIDERS.join(', ')}, got ${JSON.stringify(raw)}`);
    case 'baseUrl': {
      const ok = typeof raw === 'string' && /^https?:\/\/[^/\s]+/.test(raw);
      if (!ok) throw configError(`${source} must be an http(s) URL such as http://localhost:11434/v1, got ${JSON.stringify(raw)}`);
      return (raw as string).replace(/\/+$/, '');
    }
    case 'apiKey':
    case 'model':
      if (typeof raw === 'string' && raw.trim() !== '') return raw.trim();
      throw configError(`${source} must be a non-empty string, got ${JSON.stringify(raw)}`);
    case 'temperature': {
      const n = typeof raw === 'string' ? Number(raw) : raw;
      if (typeof n === 'number' && Number.isFinite(n) && n >= 0 && n <= 2) return n;
      throw configError(`${source} must be a number from 0 to 2, got ${JSON.stringify(raw)}`);
    }
    case 'maxTokens':
    case 'timeoutMs':
      return parsePositiveInteger(raw, source, configError);
    case 'sqlFormat':
      if (typeof raw === 'string' && (SQL_ANSWER_FORMATS as readonly string[]).includes(raw)) return raw as SqlAnswerFormat;
      throw configError(`${source} must be one of ${SQL_ANSWER_FORMATS.join(', ')}, got ${JSON.stringify(raw)}`);
    case 'promptLayout':
      if (typeof raw === 'string' && (PROMPT_LAYOUTS as readonly string[]).includes(raw)) return raw as PromptLayout;
      throw configError(`${source} must be one of ${PROMPT_LAYOUTS.join(', ')}, got ${JSON.stringify(raw)}`);
  }
}

function settingsFromEnv(env: Env, prefix: string): Partial<LlmSettings> {
  const out: Partial<LlmSettings> = {};
  for (const field of FIELD_NAMES) {
    const name = `${prefix}${FIELDS[field]}`;
    const raw = env[name];
    if (raw !== undefined && raw !== '') (out as Record<Field, unknown>)[field] = parseField(field, raw, name);
  }
  return out;
}

function settingsFromJson(json: unknown, source: string): Partial<LlmSettings> {
  if (json === undefined) return {};
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw configError(`${source} must be an object`);
  const out: Partial<LlmSettings> = {};
  for (const [name, raw] of Object.entries(json)) {
    // A misspelt field ("temprature") silently ignored would run the wrong configuration.
    if (!(FIELD_NAMES as string[]).includes(name)) throw configError(`${source}.${name} is not a setting; known: ${FIELD_NAMES.join(', ')}`);
    (out as Record<Field, unknown>)[name as Field] = parseField(name as Field, raw, `${source}.${name}`);
  }
  return out;
}

/** Role names that appear in env vars like DECODEX_LLM_GENERATOR_MODEL. */
function rolesInEnv(env: Env): string[] {
  const suffixes = Object.values(FIELDS).join('|');
  const pattern = new RegExp(`^DECODEX_LLM_([A-Z0-9_]+?)_(${suffixes})$`);
  const roles = new Set<string>();
  for (const name of Object.keys(env)) {
    if (name.startsWith(LOCAL_ENV_PREFIX)) continue; // the local runtime's settings, not a role called "local"
    const m = pattern.exec(name);
    if (m && env[name] !== '') roles.add(m[1]);
  }
  return [...roles];
}

/**
 * Builds the configuration from env vars and an optional JSON object of the same shape
 * (`{ default?: {...}, roles?: { generator: {...} } }`, read from a file by the caller).
 * Env vars win over the file, so one run can be adjusted without editing it.
 */
export function loadLlmConfig(env: Env, fileJson?: unknown): LlmConfig {
  if (fileJson !== undefined && (typeof fileJson !== 'object' || fileJson === null || Array.isArray(fileJson))) {
    throw configError('the LLM config file must hold a JSON object like {"default": {...}, "roles": {"generator": {...}}}');
  }
  const file = (fileJson ?? {}) as { default?: unknown; roles?: unknown };
  for (const name of Object.keys(file)) {
    if (name !== 'default' && name !== 'roles') throw configError(`LLM config file: unknown top-level field "${name}" (expected "default" and "roles")`);
  }

  const shared = { ...settingsFromJson(file.default, 'LLM config file default'), ...settingsFromEnv(env, 'DECODEX_LLM_') };
  // Decided before the key fallback: an OPENAI_API_KEY left in the shell names no model.
  const sharedProvider = namedProvider(shared);
  const sharedKey = shared.apiKey ?? keyFallback(env, sharedProvider);
  if (sharedKey) shared.apiKey = sharedKey;

  const roles: Record<string, Partial<LlmSettings>> = {};
  const fileRoles = file.roles ?? {};
  if (typeof fileRoles !== 'object' || fileRoles === null || Array.isArray(fileRoles)) throw configError('LLM config file: "roles" must be an object');
  for (const [role, json] of Object.entries(fileRoles)) roles[roleKey(role)] = settingsFromJson(json, `LLM config file roles.${role}`);
  for (const envRole of rolesInEnv(env)) {
    const key = roleKey(envRole);
    roles[key] = { ...roles[key], ...settingsFromEnv(env, `DECODEX_LLM_${envRole}_`) };
  }
  // A role on another provider cannot use the shared key; give it that provider's own key var.
  for (const settings of Object.values(roles)) {
    const provider = roleProvider(sharedProvider, settings);
    if (provider !== sharedProvider && settings.apiKey === undefined) {
      const fallback = keyFallback(env, provider);
      if (fallback) settings.apiKey = fallback;
    }
  }

  const local = loadLocalLlmConfig(env);
  const defaultSettings = sharedProvider === undefined ? null : complete(sharedProvider, shared, local);
  return { shared, default: defaultSettings, roles, local };
}

function keyFallback(env: Env, provider: ProviderName | undefined): string | undefined {
  const name = provider && PROVIDER_KEY_VAR[provider];
  return (name && env[name]) || undefined;
}

/**
 * The provider a group of settings names: its own, or OpenAI-compatible when it names a model,
 * endpoint or key without one (as before the local provider existed); undefined when it names none.
 */
function namedProvider(settings: Partial<LlmSettings>): ProviderName | undefined {
  if (settings.provider) return settings.provider;
  return (settings.model ?? settings.baseUrl ?? settings.apiKey) !== undefined ? 'openai' : undefined;
}

/** A role's provider: its own, else the shared one, else the one its settings imply, else local. */
function roleProvider(sharedProvider: ProviderName | undefined, own: Partial<LlmSettings>): ProviderName {
  return own.provider ?? sharedProvider ?? namedProvider(own) ?? 'local';
}

/** Settings on top of the provider's built-in defaults; a local model left unnamed is DECODEX_LLM_LOCAL_MODEL's. */
function complete(provider: ProviderName, settings: Partial<LlmSettings>, local: LocalLlmConfig): LlmSettings {
  if (provider !== 'local') return { ...BUILT_IN, model: '', ...settings, provider };
  // Endpoint and key mean nothing to an in-process model; leaving them out keeps cache keys clean.
  const { baseUrl: _baseUrl, apiKey: _apiKey, ...own } = settings;
  return { ...LOCAL_BUILT_IN, ...own, provider, model: settings.model || local.model };
}

/**
 * The complete settings of one role: its overrides on top of the shared settings. A role that
 * switches provider inherits neither the shared base URL, key nor model (they belong to the
 * other provider), only sampling and limits. With nothing configured, a role runs the local
 * model. Throws an LlmError of kind `config` naming the env vars to set.
 */
export function settingsForRole(config: LlmConfig, role: string): LlmSettings {
  const own = config.roles[roleKey(role)] ?? {};
  const sharedProvider = namedProvider(config.shared);
  const provider = roleProvider(sharedProvider, own);
  const { baseUrl: _baseUrl, apiKey: _apiKey, model: _model, ...sharedTuning } = config.shared;
  const inherited = sharedProvider === undefined || sharedProvider === provider ? config.shared : sharedTuning;
  const settings = complete(provider, { ...inherited, ...own }, config.local);
  if (provider === 'local') return settings;

  if (!settings.model) {
    throw configError(`No model is configured for the LLM role "${role}". Set DECODEX_LLM_MODEL (all roles) or ${roleEnvVar(role, 'model')}`);
  }
  if (!settings.baseUrl && !settings.apiKey) {
    throw configError(
      `The LLM role "${role}" uses the public ${settings.provider} API but has no API key. ` +
        `Set DECODEX_LLM_API_KEY (or ${PROVIDER_KEY_VAR[settings.provider]}), DECODEX_LLM_BASE_URL for a local OpenAI-compatible server, ` +
        'or DECODEX_LLM_PROVIDER=local to run a GGUF model in-process',
    );
  }
  return settings;
}

/** True when some role may run on the local provider (its sequences then bound the `llm` worker). */
export function usesLocalProvider(config: LlmConfig): boolean {
  // With no shared provider, every role that names no remote model of its own runs locally.
  const sharedProvider = namedProvider(config.shared);
  if (sharedProvider === undefined || sharedProvider === 'local') return true;
  return Object.values(config.roles).some((role) => role.provider === 'local');
}
