import { columnKey, type ColumnRef } from '../../core/preparation/column-ref';
import type { PreparationVersions } from '../../core/preparation/preparation-types';
import type { ColumnProfile, TableProfile } from '../../core/profiling/column-profile';
import type { ArtifactStore } from '../artifacts/artifact-store';
import type { StoredSchema } from './inspect-database';
import { ARTIFACT_KINDS, artifactKeys } from './preparation-artifacts';
import { requireArtifact } from './preparation-deps';

export interface PreparedProfiles {
  stored: StoredSchema;
  tables: TableProfile[];
  /** Every column's profile, in schema order. */
  columns: ColumnProfile[];
}

/**
 * Recently loaded profile sets, per store. Artifacts of one version never change (a changed
 * database or configuration is a new version), so a worker may keep them: triage, statistics
 * and notes of one database read the same profiles once instead of once per pair.
 */
const recent = new WeakMap<ArtifactStore, Map<string, PreparedProfiles>>();
const KEEP = 8;

/** The stored schema and every table's profile of one profile version (all must exist). */
export async function loadPreparedProfiles(store: ArtifactStore, databaseId: string, versions: PreparationVersions): Promise<PreparedProfiles> {
  const cacheKey = artifactKeys.schema(databaseId, versions);
  const cache = recent.get(store) ?? new Map<string, PreparedProfiles>();
  recent.set(store, cache);
  const hit = cache.get(cacheKey);
  if (hit) {
    cache.delete(cacheKey); // re-insert: Map order doubles as recency order
    cache.set(cacheKey, hit);
    return hit;
  }
  const stored = await requireArtifact<StoredSchema>(store, ARTIFACT_KINDS.schema, cacheKey);
  const tables: TableProfile[] = [];
  for (const t of stored.tables) {
    tables.push(await requireArtifact<TableProfile>(store, ARTIFACT_KINDS.tableProfile, artifactKeys.tableProfile(databaseId, versions, t.name)));
  }
  const loaded = { stored, tables, columns: tables.flatMap((t) => t.columns) };
  cache.set(cacheKey, loaded);
  if (cache.size > KEEP) cache.delete(cache.keys().next().value as string);
  return loaded;
}

export function profileOf(columns: ColumnProfile[], ref: ColumnRef): ColumnProfile {
  const profile = columns.find((p) => p.table === ref.table && p.column === ref.column);
  if (!profile) throw new Error(`no profile for ${columnKey(ref)}`);
  return profile;
}
