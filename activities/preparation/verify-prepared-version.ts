import type { ValueLexicon } from '../../core/indexing/lexical-value-index';
import type { PreparationVersions } from '../../core/preparation/preparation-types';
import type { TableProfile } from '../../core/profiling/column-profile';
import type { StoredSchema } from '../../core/profiling/stored-schema';
import { ARTIFACT_KINDS, artifactKeys, collectionNames, pointIds } from '../prepared/preparation-artifacts';
import type { PreparationDeps } from '../prepared/preparation-deps';

/**
 * What of one prepared version is not in the stores (empty when it is whole). Read fresh, never
 * through the per-worker caches: the question is whether another worker removed something.
 * A version goes missing in part when a concurrent preparation of the same database publishes
 * another version, whose clean-up removes every other version's artifacts and collections
 * (possibly while this one was still writing them, leaving a collection rebuilt from the middle).
 */
export async function missingParts(
  deps: Pick<PreparationDeps, 'store' | 'vectors'>,
  databaseId: string,
  versions: PreparationVersions,
  noteIds: string[],
): Promise<string[]> {
  const missing: string[] = [];
  const { store } = deps;
  const schema = await store.get<StoredSchema>(ARTIFACT_KINDS.schema, artifactKeys.schema(databaseId, versions));
  if (!schema) return [`the schema of profile version ${versions.profile}`];
  const profileIds = new Set<string>();
  for (const t of schema.tables) {
    const profile = await store.get<TableProfile>(ARTIFACT_KINDS.tableProfile, artifactKeys.tableProfile(databaseId, versions, t.name));
    if (!profile) missing.push(`the profile of table ${t.name}`);
    for (const c of profile?.columns ?? []) profileIds.add(pointIds.profile(c.table, c.column));
  }
  const lexicon = await store.get<ValueLexicon>(ARTIFACT_KINDS.valueLexicon, artifactKeys.valueLexicon(databaseId, versions));
  if (!lexicon) missing.push(`the value lexicon of index version ${versions.index}`);
  if (!(await store.has(ARTIFACT_KINDS.candidatePairs, artifactKeys.candidatePairs(databaseId, versions)))) {
    missing.push(`the candidate pairs of exploration version ${versions.exploration}`);
  }
  for (const id of noteIds) {
    if (!(await store.has(ARTIFACT_KINDS.note, artifactKeys.note(databaseId, versions, id)))) missing.push(`note ${id}`);
  }

  const valueIds = new Set((lexicon?.columns ?? []).filter((c) => c.textual).flatMap((c) => c.values.map((v) => pointIds.value(c.table, c.column, v))));
  const collections = collectionNames(databaseId, versions);
  const existing = new Set(await deps.vectors.listCollections());
  for (const [name, expected] of [
    [collections.profiles, missing.length ? 0 : profileIds.size],
    [collections.values, lexicon ? valueIds.size : 0],
  ] as const) {
    if (!existing.has(name)) missing.push(`vector collection ${name}`);
    else if (expected > 0 && (await deps.vectors.count(name)) !== expected) missing.push(`part of vector collection ${name} (${expected} points expected)`);
  }
  return missing;
}
