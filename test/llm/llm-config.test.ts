import { LlmError } from '../../activities/llm/errors';
import { loadLlmConfig, settingsForRole, usesLocalProvider } from '../../activities/llm/llm-config';
import { defaultLocalModel, DRAFT_LOCAL_MODEL } from '../../activities/llm/local/local-llm-config';

function configError(run: () => unknown): LlmError {
  try {
    run();
  } catch (err) {
    expect(err).toBeInstanceOf(LlmError);
    expect((err as LlmError).kind).toBe('config');
    expect((err as LlmError).retryable).toBe(false);
    return err as LlmError;
  }
  throw new Error('expected a configuration error');
}

describe('loadLlmConfig / settingsForRole', () => {
  it('runs the local model when nothing is configured', () => {
    const config = loadLlmConfig({});
    expect(config.default).toBeNull();
    expect(settingsForRole(config, 'generator')).toEqual({ provider: 'local', model: defaultLocalModel(), temperature: 0, maxTokens: 512, timeoutMs: 300000 });
    expect(usesLocalProvider(config)).toBe(true);
  });

  it('keeps running locally when only sampling settings or a stray OPENAI_API_KEY are set', () => {
    const config = loadLlmConfig({ DECODEX_LLM_MAX_TOKENS: '200', DECODEX_LLM_TEMPERATURE: '0.3', OPENAI_API_KEY: 'sk-left-over' });
    expect(settingsForRole(config, 'generator')).toEqual({
      provider: 'local',
      model: defaultLocalModel(),
      temperature: 0.3,
      maxTokens: 200,
      timeoutMs: 300000,
    });
  });

  it('reads the local model and runtime from DECODEX_LLM_LOCAL_*, which names no role', () => {
    const config = loadLlmConfig({
      DECODEX_LLM_PROVIDER: 'local',
      DECODEX_LLM_LOCAL_MODEL: '/models/coder.gguf',
      DECODEX_LLM_LOCAL_CONTEXT_SIZE: '2048',
      DECODEX_LLM_LOCAL_THREADS: '3',
      DECODEX_LLM_LOCAL_SEQUENCES: '4',
    });
    expect(config.roles).toEqual({});
    expect(config.local).toEqual({ model: '/models/coder.gguf', contextSize: 2048, threads: 3, sequences: 4, parallel: 2, draft: 'none', copyPrefixes: true });
    // Generations at once: DECODEX_LLM_LOCAL_PARALLEL, never more than the sequences that run them.
    expect(loadLlmConfig({ DECODEX_LLM_LOCAL_SEQUENCES: '4', DECODEX_LLM_LOCAL_PARALLEL: '3' }).local).toMatchObject({ sequences: 4, parallel: 3 });
    expect(loadLlmConfig({ DECODEX_LLM_LOCAL_SEQUENCES: '1' }).local).toMatchObject({ sequences: 1, parallel: 1 });
    expect(() => loadLlmConfig({ DECODEX_LLM_LOCAL_SEQUENCES: '2', DECODEX_LLM_LOCAL_PARALLEL: '3' })).toThrow(
      'DECODEX_LLM_LOCAL_PARALLEL (3) cannot exceed DECODEX_LLM_LOCAL_SEQUENCES (2)',
    );
    expect(settingsForRole(config, 'judger')).toMatchObject({ provider: 'local', model: '/models/coder.gguf' });
    // Drafting: a draft model only with DECODEX_LLM_LOCAL_DRAFT=draft-model (the 0.5B sibling unless named), never set and ignored.
    expect(loadLlmConfig({ DECODEX_LLM_LOCAL_DRAFT: 'draft-model' }).local).toMatchObject({ draft: 'draft-model', draftModel: DRAFT_LOCAL_MODEL });
    expect(loadLlmConfig({ DECODEX_LLM_LOCAL_DRAFT: 'draft-model', DECODEX_LLM_LOCAL_DRAFT_MODEL: '/m/small.gguf' }).local).toMatchObject({
      draftModel: '/m/small.gguf',
    });
    expect(loadLlmConfig({ DECODEX_LLM_LOCAL_DRAFT: 'input-lookup' }).local).not.toHaveProperty('draftModel');
    expect(configError(() => loadLlmConfig({ DECODEX_LLM_LOCAL_DRAFT_MODEL: '/m/small.gguf' })).message).toContain('set DECODEX_LLM_LOCAL_DRAFT=draft-model');
    expect(configError(() => loadLlmConfig({ DECODEX_LLM_LOCAL_DRAFT: 'medusa' })).message).toContain('none, input-lookup, draft-model');
    // Copying another sequence's prefix: on unless turned off, on/off only.
    expect(loadLlmConfig({}).local.copyPrefixes).toBe(true);
    expect(loadLlmConfig({ DECODEX_LLM_LOCAL_COPY_PREFIXES: 'off' }).local.copyPrefixes).toBe(false);
    expect(configError(() => loadLlmConfig({ DECODEX_LLM_LOCAL_COPY_PREFIXES: 'yes' })).message).toContain('must be "on" or "off"');
    // DECODEX_LLM_MODEL names the model of every role, local ones included.
    expect(settingsForRole(loadLlmConfig({ DECODEX_LLM_PROVIDER: 'local', DECODEX_LLM_MODEL: 'hf:org/repo/x.gguf' }), 'judger').model).toBe(
      'hf:org/repo/x.gguf',
    );
  });

  it('lets one role run locally beside a remote default, without the remote endpoint, key or model', () => {
    const config = loadLlmConfig({
      DECODEX_LLM_BASE_URL: 'http://vllm:8000/v1',
      DECODEX_LLM_API_KEY: 'k',
      DECODEX_LLM_MODEL: 'big',
      DECODEX_LLM_TEMPERATURE: '0.2',
      DECODEX_LLM_JUDGER_PROVIDER: 'local',
      DECODEX_LLM_LOCAL_MODEL: '/models/small.gguf',
    });
    expect(settingsForRole(config, 'judger')).toEqual({ provider: 'local', model: '/models/small.gguf', temperature: 0.2, maxTokens: 512, timeoutMs: 300000 });
    expect(settingsForRole(config, 'generator')).toMatchObject({ provider: 'openai', model: 'big' });
    expect(usesLocalProvider(config)).toBe(true);
    expect(usesLocalProvider(loadLlmConfig({ DECODEX_LLM_BASE_URL: 'http://vllm:8000/v1', DECODEX_LLM_MODEL: 'big' }))).toBe(false);
  });

  it.each([
    [{ DECODEX_LLM_LOCAL_CONTEXT_SIZE: 'big' }, 'DECODEX_LLM_LOCAL_CONTEXT_SIZE must be a positive integer, got "big"'],
    [{ DECODEX_LLM_LOCAL_SEQUENCES: '0' }, 'DECODEX_LLM_LOCAL_SEQUENCES must be a positive integer, got "0"'],
  ])('rejects invalid local runtime value %j', (env, message) => {
    expect(configError(() => loadLlmConfig(env)).message).toBe(message);
  });

  it('builds the shared settings from env vars, with built-in defaults', () => {
    const config = loadLlmConfig({ DECODEX_LLM_BASE_URL: 'http://localhost:11434/v1/', DECODEX_LLM_MODEL: 'qwen2.5-coder' });
    expect(settingsForRole(config, 'generator')).toEqual({
      provider: 'openai',
      baseUrl: 'http://localhost:11434/v1',
      model: 'qwen2.5-coder',
      temperature: 0,
      maxTokens: 4096,
      timeoutMs: 120000,
    });
  });

  it('overrides per role, and role names match env spelling in any case', () => {
    const env = {
      DECODEX_LLM_BASE_URL: 'http://vllm:8000/v1',
      DECODEX_LLM_API_KEY: 'k',
      DECODEX_LLM_MODEL: 'small',
      DECODEX_LLM_TEMPERATURE: '0.2',
      DECODEX_LLM_MAX_TOKENS: '1000',
      DECODEX_LLM_TIMEOUT_MS: '5000',
      DECODEX_LLM_GENERATOR_MODEL: 'big',
      DECODEX_LLM_GENERATOR_TEMPERATURE: '0.7',
      DECODEX_LLM_SQL_FIXER_BASE_URL: 'http://other:8000/v1',
    };
    const config = loadLlmConfig(env);
    expect(settingsForRole(config, 'generator')).toMatchObject({ model: 'big', temperature: 0.7, maxTokens: 1000, timeoutMs: 5000, apiKey: 'k' });
    expect(settingsForRole(config, 'sql-fixer')).toMatchObject({ model: 'small', baseUrl: 'http://other:8000/v1', temperature: 0.2 });
    expect(settingsForRole(config, 'judger')).toMatchObject({ model: 'small', baseUrl: 'http://vllm:8000/v1' });
  });

  it("falls back to the provider's own key var", () => {
    expect(settingsForRole(loadLlmConfig({ OPENAI_API_KEY: 'sk-1', DECODEX_LLM_MODEL: 'gpt-4o-mini' }), 'x').apiKey).toBe('sk-1');
    const anthropic = loadLlmConfig({ DECODEX_LLM_PROVIDER: 'anthropic', ANTHROPIC_API_KEY: 'ak', OPENAI_API_KEY: 'sk', DECODEX_LLM_MODEL: 'claude' });
    expect(settingsForRole(anthropic, 'x')).toMatchObject({ provider: 'anthropic', apiKey: 'ak' });
    expect(settingsForRole(loadLlmConfig({ DECODEX_LLM_API_KEY: 'mine', OPENAI_API_KEY: 'sk', DECODEX_LLM_MODEL: 'm' }), 'x').apiKey).toBe('mine');
  });

  it('does not hand the shared endpoint and key to a role on another provider', () => {
    const config = loadLlmConfig({
      DECODEX_LLM_BASE_URL: 'http://localhost:11434/v1',
      DECODEX_LLM_API_KEY: 'ollama',
      DECODEX_LLM_MODEL: 'qwen',
      DECODEX_LLM_JUDGER_PROVIDER: 'anthropic',
      DECODEX_LLM_JUDGER_MODEL: 'claude-x',
      ANTHROPIC_API_KEY: 'ak',
    });
    const judger = settingsForRole(config, 'judger');
    expect(judger).toMatchObject({ provider: 'anthropic', model: 'claude-x', apiKey: 'ak' });
    expect(judger.baseUrl).toBeUndefined();
  });

  it('reads a JSON config object, and env vars win over it', () => {
    const file = {
      default: { provider: 'openai', baseUrl: 'http://file/v1', model: 'file-model', temperature: 0.5 },
      roles: { decomposer: { model: 'file-decomposer', maxTokens: 300 } },
    };
    const config = loadLlmConfig({ DECODEX_LLM_MODEL: 'env-model' }, file);
    expect(settingsForRole(config, 'generator')).toMatchObject({ baseUrl: 'http://file/v1', model: 'env-model', temperature: 0.5 });
    expect(settingsForRole(config, 'decomposer')).toMatchObject({ model: 'file-decomposer', maxTokens: 300 });
  });

  it('lets a role be configured without shared settings', () => {
    const config = loadLlmConfig({ DECODEX_LLM_GENERATOR_MODEL: 'm', DECODEX_LLM_GENERATOR_BASE_URL: 'http://h/v1' });
    expect(settingsForRole(config, 'generator')).toMatchObject({ provider: 'openai', model: 'm', baseUrl: 'http://h/v1' });
    expect(settingsForRole(config, 'judger')).toMatchObject({ provider: 'local', model: defaultLocalModel() });
  });

  it('names the missing model or key precisely', () => {
    expect(configError(() => settingsForRole(loadLlmConfig({ DECODEX_LLM_BASE_URL: 'http://h/v1' }), 'judger')).message).toBe(
      'No model is configured for the LLM role "judger". Set DECODEX_LLM_MODEL (all roles) or DECODEX_LLM_JUDGER_MODEL',
    );
    expect(configError(() => settingsForRole(loadLlmConfig({ DECODEX_LLM_MODEL: 'gpt-4o' }), 'judger')).message).toMatch(
      /uses the public openai API but has no API key\. Set DECODEX_LLM_API_KEY \(or OPENAI_API_KEY\)/,
    );
  });

  it.each([
    [{ DECODEX_LLM_TEMPERATURE: 'warm' }, 'DECODEX_LLM_TEMPERATURE must be a number from 0 to 2, got "warm"'],
    [{ DECODEX_LLM_TEMPERATURE: '3' }, 'DECODEX_LLM_TEMPERATURE must be a number from 0 to 2, got "3"'],
    [{ DECODEX_LLM_PROVIDER: 'gemini' }, 'DECODEX_LLM_PROVIDER must be one of openai, anthropic, local, got "gemini"'],
    [{ DECODEX_LLM_JUDGER_PROVIDER: 'azure' }, 'DECODEX_LLM_JUDGER_PROVIDER must be one of openai, anthropic, local, got "azure"'],
    [{ DECODEX_LLM_MAX_TOKENS: '1.5' }, 'DECODEX_LLM_MAX_TOKENS must be a positive integer, got "1.5"'],
    [{ DECODEX_LLM_TIMEOUT_MS: '-1' }, 'DECODEX_LLM_TIMEOUT_MS must be a positive integer, got "-1"'],
    [{ DECODEX_LLM_BASE_URL: 'localhost:11434' }, 'DECODEX_LLM_BASE_URL must be an http(s) URL such as http://localhost:11434/v1, got "localhost:11434"'],
  ])('rejects invalid env value %j', (env, message) => {
    expect(configError(() => loadLlmConfig(env)).message).toBe(message);
  });

  it('rejects misspelt or invalid fields in the config object', () => {
    expect(configError(() => loadLlmConfig({}, { default: { temprature: 0 } })).message).toMatch(/LLM config file default\.temprature is not a setting/);
    expect(configError(() => loadLlmConfig({}, { roles: { judger: { temperature: 'hot' } } })).message).toMatch(
      /roles\.judger\.temperature must be a number from 0 to 2/,
    );
    expect(configError(() => loadLlmConfig({}, { model: 'x' })).message).toMatch(/unknown top-level field "model"/);
    expect(configError(() => loadLlmConfig({}, [])).message).toMatch(/must hold a JSON object/);
  });
});
