import { focusFromColumns } from '../../core/linking/focused-schema';
import type { FocusedTable } from '../../core/question/focused-table';
import type { PreparedDatabaseManifest } from '../../core/preparation/preparation-types';
import type { ArtifactStore } from '../artifacts/artifact-store';
import { recentArtifacts } from '../artifacts/recent-artifacts';
import type { IndexEmbedders } from '../embeddings/index-embedders';
import type { VectorStore } from '../vectors/vector-store';
import { loadPreparedIndices, retrieveColumns, type PreparedIndices } from './retrieve-columns';

export interface RetrieveSchemaElementsInput {
  question: string;
  manifest: Pick<PreparedDatabaseManifest, 'databaseId' | 'versions' | 'collections'>;
}

export interface RetrieveSchemaElementsOutput {
  focus: FocusedTable[];
  /** Database values matched to the question, kept as grounding for the prompts (§3.2 Step 1). */
  grounding: string[];
  counts: { profile: number; value: number; join: number };
}

export interface RetrievalDeps {
  store: ArtifactStore;
  vectors: VectorStore;
  embedders: IndexEmbedders;
}

/** Indices of recently asked databases: one version never changes, and loading the lexicon is the slow part. */
const recentIndices = recentArtifacts<PreparedIndices>(8);

function indicesOf(deps: RetrievalDeps, manifest: RetrieveSchemaElementsInput['manifest']): Promise<PreparedIndices> {
  return recentIndices(deps.store, `${manifest.databaseId}/${manifest.versions.index}`, () => loadPreparedIndices(deps.store, manifest));
}

/** DexterSQL §3.2 Step 1: the preliminary focused schema from the profile and value indices, with the matched values. */
export async function retrieveSchemaElements(deps: RetrievalDeps, input: RetrieveSchemaElementsInput): Promise<RetrieveSchemaElementsOutput> {
  const retrieved = await retrieveColumns(deps, await indicesOf(deps, input.manifest), input.question);
  const count = (reason: string) => retrieved.filter((c) => c.reason === reason).length;
  return {
    focus: focusFromColumns(retrieved),
    grounding: retrieved.filter((c) => c.reason === 'value').map((c) => `${c.table}.${c.column}: ${c.evidence}`),
    counts: { profile: count('profile'), value: count('value'), join: count('join') },
  };
}
