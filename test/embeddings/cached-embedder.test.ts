import { openSqliteArtifactStore } from '../../activities/artifacts/sqlite-artifact-store';
import type { ArtifactStore } from '../../activities/artifacts/artifact-store';
import { CachedEmbedder, EMBEDDING_CACHE_KIND } from '../../activities/embeddings/cached-embedder';
import type { Embedder } from '../../activities/embeddings/embedder';
import { HashedEmbedder } from '../../activities/embeddings/hashed-embedder';

/** The hashed embedder under another name, counting the texts it is asked to embed. */
class CountingEmbedder implements Embedder {
  readonly inner = new HashedEmbedder();
  readonly dimension = this.inner.dimension;
  embedded: string[] = [];
  constructor(readonly name: string) {}
  async embed(texts: string[]): Promise<Float32Array[]> {
    this.embedded.push(...texts);
    return this.inner.embed(texts);
  }
}

describe('CachedEmbedder', () => {
  let store: ArtifactStore;
  beforeEach(() => {
    store = openSqliteArtifactStore(':memory:');
  });
  afterEach(() => store.close());

  it('gives exactly the vectors of its embedder, computing each text once across calls and within one', async () => {
    const inner = new CountingEmbedder('counting');
    const cached = new CachedEmbedder(inner, store);
    const texts = ['student: stu id', 'singer: name', 'student: stu id', 'concert: year'];
    const direct = await new HashedEmbedder().embed(texts);
    expect(await cached.embed(texts)).toEqual(direct);
    expect(inner.embedded).toEqual(['student: stu id', 'singer: name', 'concert: year']);

    // A rebuild: only the new text is computed; the remembered ones are read back bit for bit.
    const again = await cached.embed(['concert: year', 'student: stu id', 'stadium: capacity']);
    expect(inner.embedded.slice(3)).toEqual(['stadium: capacity']);
    expect(again[0]).toEqual(direct[3]);
    expect(again[1]).toEqual(direct[0]);
    expect(await store.list(EMBEDDING_CACHE_KIND)).toHaveLength(4);
  });

  it("never gives one embedder's vectors to another, and recomputes a stored vector of the wrong length", async () => {
    await new CachedEmbedder(new CountingEmbedder('model-a'), store).embed(['singer: name']);
    const b = new CountingEmbedder('model-b');
    await new CachedEmbedder(b, store).embed(['singer: name']);
    expect(b.embedded).toEqual(['singer: name']);

    const [key] = await store.list(EMBEDDING_CACHE_KIND, 'model-b/');
    await store.put(EMBEDDING_CACHE_KIND, key, Buffer.from(new Float32Array(3).buffer).toString('base64'));
    const [vector] = await new CachedEmbedder(b, store).embed(['singer: name']);
    expect(vector).toHaveLength(b.dimension);
    expect(b.embedded).toEqual(['singer: name', 'singer: name']);
  });
});
