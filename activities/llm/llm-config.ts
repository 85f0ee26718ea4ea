import { LlmError } from './errors';

export type ProviderName = 'openai' | 'anthropic';
const PROVIDERS: readonly ProviderName[] = ['openai', 'anthropic'];

/** Everything needed to call one model. `baseUrl` absent means the provider's public API. */
export interface LlmSettings {
  provider: ProviderName;
  baseUrl?: string;
  apiKey?: string;
  model: string;
  temperature: number;
  maxTokens: number;
  timeoutMs: number;
}

/**
 * The model configuration of a worker: settings shared by every role, and per-role overrides
 * (e.g. a cheap model for the judger, a strong one for the generator). `default` is null when
 * nothing at all was configured at the shared level. Role keys are normalised (see roleKey).
 */
export interface LlmConfig {
  default: LlmSettings | null;
  roles: Record<string, Partial<LlmSettings>>;
}

type Env = Record<string, string | undefined>;

// Deterministic answers by default (reruns are comparable and cacheable); an HTTP timeout well
// below the LLM activity's start-to-close timeout so a hung call is retried, not abandoned.
const BUILT_IN = { provider: 'openai' as ProviderName, temperature: 0, maxTokens: 4096, timeoutMs: 120_000 };

/** The env-var / file field of each setting; the env var is `DECODEX_LLM_[<ROLE>_]<SUFFIX>`. */
const FIELDS = {
  provider: 'PROVIDER',
  baseUrl: 'BASE_URL',
  apiKey: 'API_KEY',
  model: 'MODEL',
  temperature: 'TEMPERATURE',
  maxTokens: 'MAX_TOKENS',
  timeoutMs: 'TIMEOUT_MS',
} as const satisfies Record<keyof LlmSettings, string>;
type Field = keyof typeof FIELDS;
const FIELD_NAMES = Object.keys(FIELDS) as Field[];

const PROVIDER_KEY_VAR: Record<ProviderName, string> = { openai: 'OPENAI_API_KEY', anthropic: 'ANTHROPIC_API_KEY' };

const NOT_CONFIGURED =
  'No LLM is configured. Set DECODEX_LLM_BASE_URL (an OpenAI-compatible endpoint, e.g. http://localhost:11434/v1 for Ollama), ' +
  'DECODEX_LLM_MODEL and DECODEX_LLM_API_KEY, or DECODEX_LLM_PROVIDER=anthropic with ANTHROPIC_API_KEY and DECODEX_LLM_MODEL';

function configError(message: string): LlmError {
  return new LlmError('config', message);
}

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
    case 'timeoutMs': {
      const n = typeof raw === 'string' ? Number(raw) : raw;
      if (typeof n === 'number' && Number.isInteger(n) && n > 0) return n;
      throw configError(`${source} must be a positive integer, got ${JSON.stringify(raw)}`);
    }
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
  const sharedProvider = shared.provider ?? BUILT_IN.provider;
  if (shared.apiKey === undefined) {
    const fallback = env[PROVIDER_KEY_VAR[sharedProvider]];
    if (fallback) shared.apiKey = fallback;
  }

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
    if (settings.provider && settings.provider !== sharedProvider && settings.apiKey === undefined) {
      const fallback = env[PROVIDER_KEY_VAR[settings.provider]];
      if (fallback) settings.apiKey = fallback;
    }
  }

  const anythingShared = shared.provider ?? shared.baseUrl ?? shared.apiKey ?? shared.model;
  const defaultSettings: LlmSettings | null = anythingShared === undefined ? null : { ...BUILT_IN, model: '', ...shared };
  return { default: defaultSettings, roles };
}

/**
 * The complete settings of one role: its overrides on top of the shared settings. A role that
 * switches provider inherits neither the shared base URL nor the shared key (they belong to
 * the other provider). Throws an LlmError of kind `config` naming the env vars to set.
 */
export function settingsForRole(config: LlmConfig, role: string): LlmSettings {
  const own = config.roles[roleKey(role)] ?? {};
  if (config.default === null && own.model === undefined) throw configError(NOT_CONFIGURED);

  const shared = config.default ?? { ...BUILT_IN, model: '' };
  const switchesProvider = own.provider !== undefined && own.provider !== shared.provider;
  const inherited: LlmSettings = switchesProvider ? { ...shared, baseUrl: undefined, apiKey: undefined } : { ...shared };
  const settings: LlmSettings = { ...inherited, ...own };

  if (!settings.model) {
    throw configError(`No model is configured for the LLM role "${role}". Set DECODEX_LLM_MODEL (all roles) or ${roleEnvVar(role, 'model')}`);
  }
  if (!settings.baseUrl && !settings.apiKey) {
    throw configError(
      `The LLM role "${role}" uses the public ${settings.provider} API but has no API key. ` +
        `Set DECODEX_LLM_API_KEY (or ${PROVIDER_KEY_VAR[settings.provider]}), or DECODEX_LLM_BASE_URL for a local OpenAI-compatible server`,
    );
  }
  return settings;
}
