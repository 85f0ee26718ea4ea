import type { ArtifactStore } from './artifacts/artifact-store';
import type { DatabaseRegistry } from './database/database-registry';
import type { IndexEmbedders } from './embeddings/index-embedders';
import type { LlmService } from './llm/llm-service';
import type { VectorStore } from './vectors/vector-store';

/** What activities need from the outside world; workers build it, tests inject their own. */
export interface ActivityDeps {
  databases: DatabaseRegistry;
  llm: LlmService;
  /** Stored results of long jobs (benchmark records, ...); the same store as the LLM cache. */
  artifacts: ArtifactStore;
  /** Embed column profiles and values for the profile and value indices (offline preparation). */
  embedders: IndexEmbedders;
  /** Where those indices live: the embedded store, or Qdrant when QDRANT_URL is set. */
  vectors: VectorStore;
}
