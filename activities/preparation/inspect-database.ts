import { ApplicationFailure } from '@temporalio/common';
import { databaseLabel } from '../../core/database-label';
import { preparedDatabaseId } from '../../core/preparation/database-id';
import type { PreparationConfig } from '../../core/preparation/preparation-config';
import type { DatabaseInspection, PreparedDatabaseManifest, TableOverview } from '../../core/preparation/preparation-types';
import type { StoredSchema } from '../../core/profiling/stored-schema';
import { databaseFingerprint } from './database-fingerprint';
import type { PreparationDeps } from '../prepared/preparation-deps';
import { ARTIFACT_KINDS, artifactKeys } from '../prepared/preparation-artifacts';
import { preparationVersions } from './preparation-versions';
import { embedderNames } from '../embeddings/index-embedders';
import { readDocumentation } from './read-documentation';

export interface InspectDatabaseInput {
  database: string;
  documentation?: string;
  config: PreparationConfig;
  queryTimeoutMs: number;
}

/**
 * First step of `prepareDatabase`: who the database is (id, content fingerprint), which
 * artifact versions the current data + configuration + code map to, and what of that is
 * already stored — the whole preparation when nothing changed, or the tables already profiled
 * when a run was interrupted.
 */
export async function inspectDatabase(deps: PreparationDeps, input: InspectDatabaseInput): Promise<DatabaseInspection> {
  const db = await deps.databases.openOrFail(input.database);
  const schema = await db.schema();
  const databaseId = preparedDatabaseId(input.database);
  const fingerprint = await databaseFingerprint(db, schema, input.queryTimeoutMs);
  const fromFiles = readDocumentationOrFail(input.documentation, db.path ?? input.database, db.dialect);
  // Without a documentation file, the comments the database holds (COMMENT ON) are the developer's documentation.
  const fromDatabase = fromFiles.documentation === null && db.documentation ? await db.documentation() : null;
  const { documentation, source } = fromDatabase ? { documentation: fromDatabase, source: 'comments in the database' } : fromFiles;
  const versions = preparationVersions({ databaseId, fingerprint, documentation, config: input.config, embedders: embedderNames(deps.embedders) });

  const schemaKey = artifactKeys.schema(databaseId, versions);
  let stored = await deps.store.get<StoredSchema>(ARTIFACT_KINDS.schema, schemaKey);
  if (!stored) {
    const tables: TableOverview[] = [];
    for (const table of schema.tables) tables.push({ name: table.name, rowCount: await db.rowCount(table.name), columnCount: table.columns.length });
    stored = { schema, documentation, tables };
    await deps.store.put(ARTIFACT_KINDS.schema, schemaKey, stored);
  }

  const prefix = artifactKeys.tableProfilePrefix(databaseId, versions);
  const profiledTables = (await deps.store.list(ARTIFACT_KINDS.tableProfile, prefix)).map((key) => key.slice(prefix.length));
  const manifest = await deps.store.get<PreparedDatabaseManifest>(ARTIFACT_KINDS.manifest, databaseId);
  const current = manifest && manifest.complete && sameVersions(manifest.versions, versions) ? manifest : null;
  return {
    databaseId,
    label: databaseLabel(input.database),
    dialect: db.dialect,
    fingerprint,
    versions,
    tables: stored.tables,
    profiledTables,
    documentationSource: source,
    current,
  };
}

function sameVersions(a: DatabaseInspection['versions'], b: DatabaseInspection['versions']): boolean {
  return a.profile === b.profile && a.index === b.index && a.exploration === b.exploration;
}

/** Broken documentation needs a person, not a retry. */
function readDocumentationOrFail(...args: Parameters<typeof readDocumentation>): ReturnType<typeof readDocumentation> {
  try {
    return readDocumentation(...args);
  } catch (err) {
    throw ApplicationFailure.nonRetryable((err as Error).message, 'DocumentationUnreadable');
  }
}
