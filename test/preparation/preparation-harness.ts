import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openSqliteArtifactStore } from '../../activities/artifacts/sqlite-artifact-store';
import type { ArtifactStore } from '../../activities/artifacts/artifact-store';
import { DatabaseRegistry } from '../../activities/database/database-registry';
import { openTargetDatabase } from '../../activities/database/open-database';
import { HashedEmbedder } from '../../activities/embeddings/hashed-embedder';
import { createPreparationActivities, type PreparationActivities } from '../../activities/preparation/preparation-activities';
import { EmbeddedVectorStore } from '../../activities/vectors/embedded-vector-store';
import type { CandidatePair } from '../../core/exploration/pair-types';
import { resolvePreparationConfig, resolvePreparationLimits, type PreparationConfig } from '../../core/preparation/preparation-config';
import type { DatabaseInspection } from '../../core/preparation/preparation-types';

/**
 * The offline activities called directly, without Temporal (their logic, not their
 * orchestration, is under test): a fresh artifact and vector store in a temporary folder.
 */
export interface PreparationHarness {
  activities: PreparationActivities;
  store: ArtifactStore;
  config: PreparationConfig;
  dir: string;
  /** inspect + profile every table + find candidate pairs. */
  explore(database: string): Promise<{ inspection: DatabaseInspection; candidates: CandidatePair[] }>;
  close(): Promise<void>;
}

export function startPreparationHarness(): PreparationHarness {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'decodex-prep-'));
  const store = openSqliteArtifactStore(path.join(dir, 'artifacts.sqlite'));
  const vectors = new EmbeddedVectorStore(path.join(dir, 'vectors'));
  const databases = new DatabaseRegistry((spec) => openTargetDatabase(spec));
  const activities = createPreparationActivities({ databases, store, embedder: new HashedEmbedder(), vectors });
  const config = resolvePreparationConfig();
  const { queryTimeoutMs, columnsPerScan } = resolvePreparationLimits();
  return {
    activities,
    store,
    config,
    dir,
    async explore(database) {
      const inspection = await activities.inspectDatabase({ database, config, queryTimeoutMs });
      const { databaseId, versions } = inspection;
      for (const table of inspection.tables) {
        await activities.profileTable({ database, databaseId, versions, table: table.name, config: config.profile, queryTimeoutMs, columnsPerScan });
      }
      const found = await activities.findCandidatePairs({ databaseId, versions, config: config.exploration });
      return { inspection, candidates: found.candidates };
    },
    async close() {
      await databases.closeAll();
      await vectors.close();
      await store.close();
    },
  };
}
