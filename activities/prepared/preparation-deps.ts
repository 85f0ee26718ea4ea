import type { ArtifactStore } from '../artifacts/artifact-store';
import type { DatabaseRegistry } from '../database/database-registry';
import type { IndexEmbedders } from '../embeddings/index-embedders';
import type { VectorStore } from '../vectors/vector-store';

/** What the preparation activities need: the databases, where artifacts and vectors go, and each index's embedder. */
export interface PreparationDeps {
  databases: DatabaseRegistry;
  store: ArtifactStore;
  embedders: IndexEmbedders;
  vectors: VectorStore;
}
