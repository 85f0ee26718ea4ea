import type { PreparationConfig } from '../../core/preparation/preparation-config';
import type { PreparationVersions } from '../../core/preparation/preparation-types';
import type { DatabaseDocumentation } from '../../core/profiling/documentation';
import { loadPrompt } from '../prompts/render-prompt';
import { PROMPT_CATALOG, PROMPT_NAMES } from '../../core/prompts/prompt-catalog';
import { contentHash } from './content-hash';

/**
 * Bump when the code that produces a family's artifacts changes what it produces: artifacts of
 * the old code then get new keys and are rebuilt, never mixed with new ones.
 */
// exploration 3: coverage no longer counts a NULL key as a key value of Ti.
const CODE_VERSIONS = { profile: 2, index: 1, exploration: 3 };

/** The LLM prompts of exploration: a new prompt version is a new exploration version. */
/** The exploration's templates, from the catalog: a new version of any of them is a new exploration version. */
export const EXPLORATION_PROMPTS = PROMPT_NAMES.filter((name) => PROMPT_CATALOG[name].stage === 'exploration');

export interface VersionInputs {
  databaseId: string;
  fingerprint: string;
  documentation: DatabaseDocumentation | null;
  config: PreparationConfig;
  /** Each index's embedder name: vectors from another embedder live in another space. */
  embedders: { profiles: string; values: string };
}

/** Chained hashes: an index version covers its profiles, an exploration version its index. */
export function preparationVersions(inputs: VersionInputs): PreparationVersions {
  const profile = contentHash(['profile', CODE_VERSIONS.profile, inputs.databaseId, inputs.fingerprint, inputs.documentation, inputs.config.profile]);
  const index = contentHash(['index', CODE_VERSIONS.index, profile, inputs.config.index, inputs.embedders.profiles, inputs.embedders.values]);
  const prompts = EXPLORATION_PROMPTS.map((name) => `${name}@${loadPrompt(name).version}`);
  const exploration = contentHash(['exploration', CODE_VERSIONS.exploration, index, inputs.config.exploration, prompts]);
  return { profile, index, exploration };
}
