import { settingsForRole, type LlmConfig, type LlmSettings } from '../activities/llm/llm-config';
import { ROLES } from '../core/prompts/prompt-catalog';

/**
 * The model behind every role of the prompt catalog (and `*` for the shared default), for the
 * benchmark's cost estimate. Roles that cannot be resolved (nothing configured, as in
 * gold-as-prediction) are left out; the estimate then says n/a rather than guess.
 */
export function modelsByRole(config: LlmConfig): Record<string, string> {
  const models: Record<string, string> = {};
  if (config.default) models['*'] = config.default.model;
  for (const role of ROLES) {
    try {
      models[role] = settingsForRole(config, role).model;
    } catch {
      // unconfigured role: no price applies
    }
  }
  return models;
}

/** The model settings besides the model itself that change what a role answers. */
const ANSWER_SETTINGS = ['temperature', 'maxTokens', 'sqlFormat', 'promptLayout'] as const;
export type AnswerSettings = Record<string, Partial<Pick<LlmSettings, (typeof ANSWER_SETTINGS)[number]>>>;

/**
 * Which of those settings were configured (`*` for the shared level, else the role's key), only
 * what was set: for the benchmark id, so a run asked with another SQL format, layout, temperature or
 * token cap (DECODEX_LLM_SQL_FORMAT=fenced, ...) is a run of its own, not the resumption of one that
 * answered differently. Nothing set gives {}.
 */
export function configuredAnswerSettings(config: LlmConfig): AnswerSettings {
  const levels: Array<[string, Partial<LlmSettings>]> = [['*', config.shared], ...Object.entries(config.roles)];
  const settings: AnswerSettings = {};
  for (const [level, configured] of levels) {
    const set = Object.fromEntries(ANSWER_SETTINGS.filter((key) => configured[key] !== undefined).map((key) => [key, configured[key]]));
    if (Object.keys(set).length) settings[level] = set;
  }
  return settings;
}
