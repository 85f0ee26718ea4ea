import { performance } from 'node:perf_hooks';
import type { PreparationVersions } from '../../core/preparation/preparation-types';
import type { ProfileConfig } from '../../core/preparation/preparation-config';
import { buildColumnProfile } from '../../core/profiling/build-column-profile';
import type { ColumnProfile, TableProfile } from '../../core/profiling/column-profile';
import { columnDocumentation, tableDocumentation } from '../../core/profiling/documentation';
import type { TableInfo } from '../../core/database/schema-types';
import { heartbeat, resumeDetails } from '../heartbeat/activity-heartbeat';
import type { StoredSchema } from '../../core/profiling/stored-schema';
import { ARTIFACT_KINDS, artifactKeys } from '../prepared/preparation-artifacts';
import { type PreparationDeps } from '../prepared/preparation-deps';
import { requireArtifact } from '../artifacts/require-artifact';
import { seededRanks } from '../../core/profiling/seeded-sample';
import { ProfileQueries } from './profile-queries';
import { profiledRows } from './sampled-rows';

export interface ProfileTableInput {
  database: string;
  databaseId: string;
  versions: PreparationVersions;
  table: string;
  config: ProfileConfig;
  queryTimeoutMs: number;
  columnsPerScan: number;
}

export interface ProfileTableOutput {
  table: string;
  columns: number;
  rows: number;
  /** Set when the table was larger than the scan bound. */
  scannedRows: number | null;
  /** The profile was stored by an earlier attempt that died before reporting it: nothing was redone. */
  alreadyStored: boolean;
  /** Column index this attempt started at: > 0 when it resumed from an earlier attempt's heartbeat. */
  resumedAtColumn: number;
  elapsedMs: number;
}

/** What a heartbeat records: the table in flight and its columns finished so far, so a retry skips them. */
interface ProfileProgress {
  table: string;
  profiles: ColumnProfile[];
}

/**
 * DexterSQL §3.1.1 for one table of a profileTables batch: cardinality statistics (one scan per
 * `columnsPerScan` columns), then per column its value distribution, from which the most
 * frequent values, a seeded sample and the value format come. Heartbeats after every column
 * with the profiles so far; a retry (worker crash, timeout) resumes after the last recorded
 * column. The result is stored as an artifact; only a summary is returned.
 */
export async function profileTable(deps: PreparationDeps, input: ProfileTableInput, stored: StoredSchema): Promise<ProfileTableOutput> {
  const started = performance.now();
  const key = artifactKeys.tableProfile(input.databaseId, input.versions, input.table);
  const info = stored.schema.tables.find((t) => t.name === input.table);
  const overview = stored.tables.find((t) => t.name === input.table);
  if (!info || !overview) throw new Error(`table ${input.table} is not in the stored schema of ${input.databaseId}`);

  // A previous attempt may have stored the profile and died before reporting: nothing to redo.
  const existing = await deps.store.get<TableProfile>(ARTIFACT_KINDS.tableProfile, key);
  if (existing) return { ...summary(existing, info.columns.length, started), alreadyStored: true };

  const db = await deps.databases.openOrFail(input.database);
  const rows = await profiledRows(db, input.table, overview.rowCount, input.config.rowScanLimit, input.queryTimeoutMs);
  const queries = new ProfileQueries(db, rows.source, input.queryTimeoutMs);
  // In a batch the details are those of whichever table was in flight when the attempt died.
  const details = resumeDetails<ProfileProgress>();
  const profiles = details?.table === input.table ? details.profiles : [];
  const resumedAtColumn = profiles.length;

  for (let start = profiles.length; start < info.columns.length; start += input.columnsPerScan) {
    const chunk = info.columns.slice(start, start + input.columnsPerScan);
    const cardinalities = await queries.cardinality(chunk);
    for (const [i, column] of chunk.entries()) {
      const ranks = seededRanks(cardinalities[i].distinctCount, input.config.sampleValues, `${input.table}.${column.name}`);
      const { valueCounts, sample } = await queries.distribution(column, input.config.valueScanLimit, ranks);
      profiles.push(
        buildColumnProfile({
          table: input.table,
          column,
          references: referenceOf(info, column.name),
          cardinality: cardinalities[i],
          valueCounts,
          sample,
          documentation: columnDocumentation(stored.documentation, input.table, column.name),
          config: input.config,
        }),
      );
      heartbeat({ table: input.table, profiles } satisfies ProfileProgress);
    }
  }

  const profile: TableProfile = {
    table: input.table,
    rowCount: overview.rowCount,
    scannedRows: overview.rowCount > input.config.rowScanLimit ? input.config.rowScanLimit : null,
    description: tableDocumentation(stored.documentation, input.table)?.description ?? null,
    columns: profiles,
  };
  await deps.store.put(ARTIFACT_KINDS.tableProfile, key, profile);
  return { ...summary(profile, info.columns.length, started), resumedAtColumn };
}

/** The schema inspectDatabase stored: what a batch reads once for all its tables. */
export function loadStoredSchema(deps: PreparationDeps, input: Pick<ProfileTableInput, 'databaseId' | 'versions'>): Promise<StoredSchema> {
  return requireArtifact<StoredSchema>(deps.store, ARTIFACT_KINDS.schema, artifactKeys.schema(input.databaseId, input.versions));
}

function summary(profile: TableProfile, columns: number, started: number): ProfileTableOutput {
  return {
    table: profile.table,
    columns,
    rows: profile.rowCount,
    scannedRows: profile.scannedRows,
    alreadyStored: false,
    resumedAtColumn: 0,
    elapsedMs: Math.round(performance.now() - started),
  };
}

/** The column this one references through a declared foreign key (in a composite key, its counterpart). */
function referenceOf(table: TableInfo, column: string): { table: string; column: string } | null {
  for (const fk of table.foreignKeys) {
    const at = fk.fromColumns.indexOf(column);
    if (at >= 0) return { table: fk.toTable, column: fk.toColumns[at] };
  }
  return null;
}
