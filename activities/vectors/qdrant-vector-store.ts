import { QdrantClient, type Schemas } from '@qdrant/js-client-rest';
import { qdrantError, statusOf } from './qdrant-errors';
import { toQdrantFilter } from './qdrant-filter';
import { qdrantPointId } from './qdrant-point-id';
import { type Payload, type SearchHit, type SearchOptions, type VectorPoint, type VectorStore, VectorStoreError } from './vector-store';
import { assertCollectionName, assertDimension, assertPayload, assertSearchOptions, assertUniqueIds, assertVector } from './vector-validation';

/**
 * VectorStore on a Qdrant server, for shared or large deployments. Collections use cosine
 * distance and Qdrant's default HNSW; writes wait for the server to apply them, so a search
 * right after an upsert sees it (as the embedded store does).
 *
 * Layout and replacement are decided above this class, identically for both stores: one
 * collection per database, kind and index version (preparation-artifacts' collectionNames), the
 * manifest naming the current ones, and publishPreparation deleting older versions only after
 * the manifest moved (README, "Vectors in Qdrant"). Hence no aliases and no payload index here.
 * A server that does not answer raises VectorStoreUnavailableError, which activities let
 * Temporal retry (qdrant-errors.ts).
 */
export interface QdrantVectorStoreOptions {
  /** e.g. `http://127.0.0.1:6333`, usually from QDRANT_URL. */
  url: string;
  apiKey?: string;
  /** Prefixed to every collection name, so several projects or test runs can share a server. */
  namespace?: string;
  /** Exact (brute-force) search instead of HNSW: slower, equal to the embedded store. */
  exactSearch?: boolean;
  /** HNSW beam width of a search. Default HNSW_EF. */
  hnswEf?: number;
  /** Per-request timeout in milliseconds. Default 60,000. */
  timeoutMs?: number;
}

/** Payload key holding the caller's string id (Qdrant ids must be UUIDs or integers). */
export const QDRANT_ORIGINAL_ID_KEY = '_decodex_id';
/**
 * Wider than Qdrant's default beam: on all Spider values in one collection (bench:vectors,
 * hashed 256-d vectors), recall@10 against exact search was 0.93 at 64, 0.95 with Qdrant's
 * default, 0.96 at 128, 0.97 at 256 and 512, with p50 3.1, 4.3, 3.3, 4.0 and 6.4 ms: 128 buys
 * most of the recall for no time. Collections under Qdrant's indexing threshold (10 MB of
 * vectors, about 10k values at 256-d) are searched exactly anyway.
 */
export const HNSW_EF = 128;
const UPSERT_BATCH = 512;
/** Points a page of a scroll (an export) reads at once. */
const SCROLL_PAGE = 256;

export class QdrantVectorStore implements VectorStore {
  private readonly client: QdrantClient;
  private readonly namespace: string;
  /** Dimensions learnt from the server; a collection deleted elsewhere shows up as an API error. */
  private readonly dimensions = new Map<string, number>();

  constructor(private readonly options: QdrantVectorStoreOptions) {
    this.namespace = options.namespace ?? '';
    this.client = new QdrantClient({
      url: options.url,
      apiKey: options.apiKey,
      timeout: options.timeoutMs ?? 60_000,
      checkCompatibility: false,
    });
  }

  async ensureCollection(name: string, dimension: number): Promise<void> {
    assertCollectionName(name);
    assertDimension(dimension);
    const remote = this.remoteName(name);
    const { exists } = await this.call(`check collection ${name}`, () => this.client.collectionExists(remote));
    if (!exists) {
      try {
        await this.client.createCollection(remote, { vectors: { size: dimension, distance: 'Cosine' } });
      } catch (error) {
        // Someone else created it meanwhile (409): fall through and check its dimension.
        if (statusOf(error) !== 409) throw this.error(`create collection ${name}`, error);
      }
    }
    this.dimensions.delete(name);
    const existing = await this.dimensionOf(name);
    if (existing !== dimension) {
      throw new VectorStoreError(`collection ${name} exists with dimension ${existing}, asked for ${dimension}`);
    }
  }

  async upsert(collection: string, points: VectorPoint[]): Promise<void> {
    const dimension = await this.dimensionOf(collection);
    assertUniqueIds(
      points.map((p) => p.id),
      collection,
    );
    const remotePoints = points.map((point) => {
      const what = `point ${JSON.stringify(point.id)} in ${collection}`;
      assertPayload(point.payload, what);
      if (QDRANT_ORIGINAL_ID_KEY in point.payload) {
        throw new VectorStoreError(`${what} uses the reserved payload key ${QDRANT_ORIGINAL_ID_KEY}`);
      }
      assertVector(point.vector, dimension, what);
      return {
        id: qdrantPointId(point.id),
        vector: Array.from(point.vector),
        payload: { ...point.payload, [QDRANT_ORIGINAL_ID_KEY]: point.id },
      };
    });
    for (let start = 0; start < remotePoints.length; start += UPSERT_BATCH) {
      const batch = remotePoints.slice(start, start + UPSERT_BATCH);
      await this.call(`upsert into ${collection}`, () => this.client.upsert(this.remoteName(collection), { wait: true, points: batch }));
    }
  }

  async search(collection: string, vector: Float32Array | number[], options: SearchOptions): Promise<SearchHit[]> {
    const dimension = await this.dimensionOf(collection);
    assertSearchOptions(options.k, options.filter);
    assertVector(vector, dimension, `query vector for ${collection}`);
    const response = await this.call(`search ${collection}`, () =>
      this.client.query(this.remoteName(collection), {
        query: Array.from(vector),
        limit: options.k,
        filter: options.filter ? toQdrantFilter(options.filter) : undefined,
        with_payload: true,
        params: this.options.exactSearch ? { exact: true } : { hnsw_ef: this.options.hnswEf ?? HNSW_EF },
      }),
    );
    return response.points.map((point) => fromScoredPoint(point, collection));
  }

  async count(collection: string): Promise<number> {
    assertCollectionName(collection);
    const result = await this.call(`count ${collection}`, () => this.client.count(this.remoteName(collection), { exact: true }));
    return result.count;
  }

  async payloads(collection: string): Promise<Omit<SearchHit, 'score'>[]> {
    await this.dimensionOf(collection);
    const points: Omit<SearchHit, 'score'>[] = [];
    let offset: Schemas['ExtendedPointId'] | null | undefined;
    do {
      const page = await this.call(`scroll ${collection}`, () =>
        this.client.scroll(this.remoteName(collection), { limit: SCROLL_PAGE, with_payload: true, with_vector: false, ...(offset ? { offset } : {}) }),
      );
      points.push(
        ...page.points
          .map((point) => fromScoredPoint({ ...point, score: 0 } as Schemas['ScoredPoint'], collection))
          .map(({ id, payload }) => ({ id, payload })),
      );
      offset = page.next_page_offset as Schemas['ExtendedPointId'] | null | undefined;
    } while (offset !== null && offset !== undefined);
    return points.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  async deleteCollection(name: string): Promise<void> {
    assertCollectionName(name);
    this.dimensions.delete(name);
    // Qdrant answers a missing collection with `false`, not an error: that suits the contract.
    await this.call(`delete collection ${name}`, () => this.client.deleteCollection(this.remoteName(name)));
  }

  async listCollections(): Promise<string[]> {
    const { collections } = await this.call('list collections', () => this.client.getCollections());
    return collections
      .map((c) => c.name)
      .filter((remote) => remote.startsWith(this.namespace))
      .map((remote) => remote.slice(this.namespace.length))
      .sort();
  }

  async close(): Promise<void> {
    // The REST client holds no connection that needs closing.
  }

  private remoteName(name: string): string {
    return this.namespace + name;
  }

  private async dimensionOf(name: string): Promise<number> {
    assertCollectionName(name);
    const known = this.dimensions.get(name);
    if (known !== undefined) return known;
    let info: Schemas['CollectionInfo'];
    try {
      info = await this.client.getCollection(this.remoteName(name));
    } catch (error) {
      if (statusOf(error) === 404) {
        throw new VectorStoreError(`collection ${name} does not exist (call ensureCollection first)`, { cause: error });
      }
      throw this.error(`read collection ${name}`, error);
    }
    const vectors = info.config.params.vectors;
    const size = vectors && typeof (vectors as Schemas['VectorParams']).size === 'number' ? (vectors as Schemas['VectorParams']).size : undefined;
    if (size === undefined) {
      throw new VectorStoreError(`collection ${name} uses named vectors, which this store does not manage`);
    }
    this.dimensions.set(name, size);
    return size;
  }

  private async call<T>(what: string, request: () => Promise<T>): Promise<T> {
    try {
      return await request();
    } catch (error) {
      throw this.error(what, error);
    }
  }

  private error(what: string, error: unknown) {
    return qdrantError(this.options.url, what, error);
  }
}

function fromScoredPoint(point: Schemas['ScoredPoint'], collection: string): SearchHit {
  const { [QDRANT_ORIGINAL_ID_KEY]: originalId, ...payload } = (point.payload ?? {}) as Record<string, unknown>;
  if (typeof originalId !== 'string') {
    throw new VectorStoreError(`point ${String(point.id)} in ${collection} has no ${QDRANT_ORIGINAL_ID_KEY} in its payload`);
  }
  return { id: originalId, score: point.score, payload: payload as Payload };
}
