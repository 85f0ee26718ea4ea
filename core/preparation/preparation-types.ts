import type { TraceEvent } from '../run-trace';
import type { RunUsage } from '../usage';
import type { PreparationConfigOverrides, PreparationLimits } from './preparation-config';
import type { Dialect } from '../database/schema-types';

/** What `prepareDatabase` is asked to do. */
export interface PrepareDatabaseInput {
  /** SQLite file path or mysql:// URL, as the worker sees it. */
  database: string;
  /**
   * Developer documentation on the worker's file system: a folder of BIRD-style
   * `<table>.csv` files or a JSON file. Default: `database_description/` next to a SQLite file.
   */
  documentation?: string;
  config?: PreparationConfigOverrides;
  limits?: Partial<PreparationLimits>;
  /** Rebuild even when the database and configuration are unchanged. */
  force?: boolean;
}

/**
 * Versions of the three artifact families. Each is a hash of the database's identity and
 * content fingerprint, its documentation, the configuration section that shapes it and the
 * code/prompt versions, chained (index and exploration build on profiles), so any change
 * yields new keys and nothing stale is ever read.
 */
export interface PreparationVersions {
  profile: string;
  index: string;
  exploration: string;
}

export interface TableOverview {
  name: string;
  rowCount: number;
  columnCount: number;
}

/** What `inspectDatabase` finds before any work: identity, versions, and what is already done. */
export interface DatabaseInspection {
  /** Stable per database spec: `<label>-<hash of the spec>` (the spec itself may hold a password). */
  databaseId: string;
  label: string;
  dialect: Dialect;
  fingerprint: string;
  versions: PreparationVersions;
  tables: TableOverview[];
  /** Tables whose profile for `versions.profile` is already stored: the workflow skips them. */
  profiledTables: string[];
  documentationSource: string | null;
  /** The stored manifest, when it describes exactly these versions and is complete. */
  current: PreparedDatabaseManifest | null;
}

export interface PreparationCounts {
  tables: number;
  columns: number;
  rows: number;
  valuesIndexed: number;
  candidatePairs: number;
  confirmedPairs: number;
  notes: number;
}

/** The one artifact that says "this database is prepared": where everything else is. */
export interface PreparedDatabaseManifest {
  databaseId: string;
  label: string;
  /** The database spec with any password redacted. */
  database: string;
  dialect: Dialect;
  fingerprint: string;
  versions: PreparationVersions;
  preparedAt: string;
  /** False when a budget stopped exploration early: the next run finishes it. */
  complete: boolean;
  collections: { profiles: string; values: string };
  counts: PreparationCounts;
}

export type PreparationStatus = 'prepared' | 'unchanged' | 'budget_exhausted';

/** One phase of a run, for the result and the `trace`-like summary. */

export interface PrepareDatabaseResult {
  status: PreparationStatus;
  databaseId: string;
  label: string;
  manifest: PreparedDatabaseManifest;
  /** Tables profiled by this run, and tables whose stored profiles were reused. */
  profiledTables: number;
  reusedTables: number;
  usage: RunUsage;
  /** The trace of the run's phases (one event per phase, as every workflow's step runner records them). */
  steps: TraceEvent[];
  /**
   * Time the activities of this run reported for their own work, summed (activities run in
   * parallel, so these can exceed wall time): profiling, and the vector value index alone.
   */
  activityMs: { profiling: number; valueIndex: number; profileIndex: number };
  /** Why the run stopped early, when it did. */
  budgetMessage?: string;
}
