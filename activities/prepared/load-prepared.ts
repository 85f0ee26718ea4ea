import { columnKey, type ColumnRef } from '../../core/preparation/column-ref';
import type { PreparationVersions } from '../../core/preparation/preparation-types';
import type { ColumnProfile, TableProfile } from '../../core/profiling/column-profile';
import type { ArtifactStore } from '../artifacts/artifact-store';
import { recentArtifacts } from '../artifacts/recent-artifacts';
import type { StoredSchema } from '../../core/profiling/stored-schema';
import { ARTIFACT_KINDS, artifactKeys } from './preparation-artifacts';
import { requireArtifact } from '../artifacts/require-artifact';

export interface PreparedProfiles {
  stored: StoredSchema;
  tables: TableProfile[];
  /** Every column's profile, in schema order. */
  columns: ColumnProfile[];
}

/** Profile sets of recent versions: triage, statistics and notes of one database read them once, not once per pair. */
const recentProfiles = recentArtifacts<PreparedProfiles>(8);

/** The stored schema and every table's profile of one profile version (all must exist). */
export function loadPreparedProfiles(store: ArtifactStore, databaseId: string, versions: PreparationVersions): Promise<PreparedProfiles> {
  const schemaKey = artifactKeys.schema(databaseId, versions);
  return recentProfiles(store, schemaKey, async () => {
    const stored = await requireArtifact<StoredSchema>(store, ARTIFACT_KINDS.schema, schemaKey);
    const tables: TableProfile[] = [];
    for (const t of stored.tables) {
      tables.push(await requireArtifact<TableProfile>(store, ARTIFACT_KINDS.tableProfile, artifactKeys.tableProfile(databaseId, versions, t.name)));
    }
    return { stored, tables, columns: tables.flatMap((t) => t.columns) };
  });
}

export function profileOf(columns: ColumnProfile[], ref: ColumnRef): ColumnProfile {
  const profile = columns.find((p) => p.table === ref.table && p.column === ref.column);
  if (!profile) throw new Error(`no profile for ${columnKey(ref)}`);
  return profile;
}
