import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { settingsForRole, type LlmConfig } from '../activities/llm/llm-config';
import { PROMPTS_DIR } from '../activities/prompts/render-prompt';

/**
 * The model behind every role a prompt template declares (and `*` for the shared default),
 * for the benchmark's cost estimate. Roles that cannot be resolved (nothing configured, as in
 * gold-as-prediction) are left out; the estimate then says n/a rather than guess.
 */
export function modelsByRole(config: LlmConfig): Record<string, string> {
  const models: Record<string, string> = {};
  if (config.default) models['*'] = config.default.model;
  for (const file of readdirSync(PROMPTS_DIR).filter((f) => f.endsWith('.md'))) {
    const role = /^role:\s*(\S+)/m.exec(readFileSync(path.join(PROMPTS_DIR, file), 'utf8'))?.[1];
    if (!role) continue;
    try {
      models[role] = settingsForRole(config, role).model;
    } catch {
      // unconfigured role: no price applies
    }
  }
  return models;
}
