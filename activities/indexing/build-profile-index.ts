import { performance } from 'node:perf_hooks';
import type { IndexConfig } from '../../core/preparation/preparation-config';
import type { PreparationVersions } from '../../core/preparation/preparation-types';
import { profileIndexText } from '../../core/indexing/profile-text-style';
import { loadPreparedProfiles } from '../prepared/load-prepared';
import { collectionNames, pointIds } from '../prepared/preparation-artifacts';
import type { PreparationDeps } from '../prepared/preparation-deps';
import { CachedEmbedder } from '../embeddings/cached-embedder';
import { upsertEmbedded } from './upsert-embedded';

export interface BuildProfileIndexInput {
  databaseId: string;
  versions: PreparationVersions;
  /** Absent in runs started before it existed: they embedded names. */
  config?: Pick<IndexConfig, 'profileText'>;
}

export interface BuildProfileIndexOutput {
  collection: string;
  columns: number;
  elapsedMs: number;
}

/**
 * DexterSQL §3.1.2 (1): one vector per column, the embedding of its profile's retrieval text
 * (names and documentation, with `profileText: 'profile'` also type, format and sample values,
 * written for its embedder: core/indexing/profile-text-style), so a question can find the
 * columns whose profiles mean what it asks about. Point ids are `table.column`; re-running the
 * activity replaces the same points.
 */
export async function buildProfileIndex(deps: PreparationDeps, input: BuildProfileIndexInput): Promise<BuildProfileIndexOutput> {
  const started = performance.now();
  const { columns } = await loadPreparedProfiles(deps.store, input.databaseId, input.versions);
  const collection = collectionNames(input.databaseId, input.versions).profiles;
  // Remembered vectors: a rebuild after the data changed embeds only texts that changed.
  const embedder = new CachedEmbedder(deps.embedders.profiles, deps.store);
  await deps.vectors.ensureCollection(collection, embedder.dimension);
  await upsertEmbedded(
    { embedder, vectors: deps.vectors },
    collection,
    columns.map((p) => ({
      id: pointIds.profile(p.table, p.column),
      text: profileIndexText(p, deps.embedders.profileText, input.config?.profileText ?? 'names'),
      payload: { table: p.table, column: p.column },
    })),
  );
  return { collection, columns: columns.length, elapsedMs: Math.round(performance.now() - started) };
}
