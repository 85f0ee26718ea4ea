import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openSqliteArtifactStore } from '../activities/artifacts/sqlite-artifact-store';
import type { ArtifactStore } from '../activities/artifacts/artifact-store';
import { DatabaseRegistry } from '../activities/database/database-registry';
import { openTargetDatabase } from '../activities/database/open-database';
import { HashedEmbedder } from '../activities/embeddings/hashed-embedder';
import { createPreparationActivities, type PreparationActivities } from '../activities/preparation/preparation-activities';
import { EmbeddedVectorStore } from '../activities/vectors/embedded-vector-store';
import type { CandidatePair, PairEvidence } from '../core/exploration/pair-types';
import {
  resolvePreparationConfig,
  resolvePreparationLimits,
  type PreparationConfig,
  type PreparationConfigOverrides,
} from '../core/preparation/preparation-config';
import type { DatabaseInspection, PreparedDatabaseManifest } from '../core/preparation/preparation-types';
import { sameEmbedder, type IndexEmbedders } from '../activities/embeddings/index-embedders';
import type { VectorStore } from '../activities/vectors/vector-store';
import { collectionNames } from '../activities/prepared/preparation-artifacts';

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
  /**
   * explore, then Step 3 on the candidate `pairId` (matched ignoring case: MariaDB may
   * lower-case table names), which must be among the candidates.
   */
  measure(database: string, pairId: string): Promise<{ inspection: DatabaseInspection; evidence: PairEvidence }>;
  /** inspect + profile every table + both indices: what retrieval needs, no model involved. */
  index(database: string): Promise<{ inspection: DatabaseInspection; manifest: Pick<PreparedDatabaseManifest, 'databaseId' | 'versions' | 'collections'> }>;
  vectors: VectorStore;
  embedders: IndexEmbedders;
  close(): Promise<void>;
}

/**
 * `embedders`: the indices' embedders (the hashed one for both by default: no model file, fast); `config`: preparation overrides;
 * `store` / `vectors`: stores shared with another harness (as two workers share them), closed by their owner, not here.
 */
export function startPreparationHarness(
  options: { embedders?: IndexEmbedders; config?: PreparationConfigOverrides; store?: ArtifactStore; vectors?: VectorStore } = {},
): PreparationHarness {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'decodex-prep-'));
  const store = options.store ?? openSqliteArtifactStore(path.join(dir, 'artifacts.sqlite'));
  const vectors = options.vectors ?? new EmbeddedVectorStore(path.join(dir, 'vectors'));
  const databases = new DatabaseRegistry((spec) => openTargetDatabase(spec));
  const embedders = options.embedders ?? sameEmbedder(new HashedEmbedder());
  const activities = createPreparationActivities({ databases, store, embedders, vectors });
  const config = resolvePreparationConfig(options.config);
  const { queryTimeoutMs, columnsPerScan } = resolvePreparationLimits();
  const profile = async (database: string) => {
    const inspection = await activities.inspectDatabase({ database, config, queryTimeoutMs });
    const { databaseId, versions } = inspection;
    const tables = inspection.tables.map((t) => t.name);
    await activities.profileTables({ database, databaseId, versions, tables, config: config.profile, queryTimeoutMs, columnsPerScan });
    return inspection;
  };
  const explore = async (database: string) => {
    const inspection = await profile(database);
    const found = await activities.findCandidatePairs({ databaseId: inspection.databaseId, versions: inspection.versions, config: config.exploration });
    return { inspection, candidates: found.candidates };
  };
  return {
    activities,
    store,
    vectors,
    embedders,
    config,
    dir,
    explore,
    async measure(database, pairId) {
      const { inspection, candidates } = await explore(database);
      const pair = candidates.find((c) => c.id.toLowerCase() === pairId.toLowerCase());
      if (!pair) throw new Error(`${pairId} is not a candidate pair of ${database} (candidates: ${candidates.map((c) => c.id).join(', ')})`);
      const { databaseId, versions } = inspection;
      const [evidence] = await activities.measurePairStatistics({ database, databaseId, versions, pairs: [pair], config: config.exploration, queryTimeoutMs });
      return { inspection, evidence };
    },
    async index(database) {
      const inspection = await profile(database);
      const { databaseId, versions } = inspection;
      await activities.buildIndices({ database, databaseId, versions, config: config.index, queryTimeoutMs });
      return { inspection, manifest: { databaseId, versions, collections: collectionNames(databaseId, versions) } };
    },
    async close() {
      await databases.closeAll();
      if (!options.vectors) await vectors.close();
      if (!options.store) await store.close();
    },
  };
}
