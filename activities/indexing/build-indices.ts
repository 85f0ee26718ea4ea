import type { IndexConfig } from '../../core/preparation/preparation-config';
import type { PreparationVersions } from '../../core/preparation/preparation-types';
import type { PreparationDeps } from '../prepared/preparation-deps';
import { buildProfileIndex, type BuildProfileIndexOutput } from './build-profile-index';
import { buildValueIndex, type BuildValueIndexOutput } from './build-value-index';

export interface BuildIndicesInput {
  database: string;
  databaseId: string;
  versions: PreparationVersions;
  config: IndexConfig;
  queryTimeoutMs: number;
}

export interface BuildIndicesOutput {
  profiles: BuildProfileIndexOutput;
  values: BuildValueIndexOutput;
}

/**
 * DexterSQL §3.1.2, the index generator: the profile index and the value index, built side by
 * side in one activity (the model embedding profiles waits on its own thread while values are
 * read and hashed). One activity rather than two: each costs Temporal the same whatever it does,
 * and a retry redoes little, since remembered profile vectors are not computed again
 * (CachedEmbedder) and the value index resumes after the last column its heartbeat recorded.
 */
export async function buildIndices(deps: PreparationDeps, input: BuildIndicesInput): Promise<BuildIndicesOutput> {
  const { database, databaseId, versions, config, queryTimeoutMs } = input;
  const [profiles, values] = await Promise.all([
    buildProfileIndex(deps, { databaseId, versions, config }),
    buildValueIndex(deps, { database, databaseId, versions, config, queryTimeoutMs }),
  ]);
  return { profiles, values };
}
