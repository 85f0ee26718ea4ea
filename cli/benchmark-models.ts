import { settingsForRole, type LlmConfig } from '../activities/llm/llm-config';
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
