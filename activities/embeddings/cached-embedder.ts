import { createHash } from 'node:crypto';
import type { ArtifactStore } from '../artifacts/artifact-store';
import type { Embedder } from './embedder';

/** Artifact kind of remembered vectors. Key: `<embedder name>/<SHA-256 of the text>`. */
export const EMBEDDING_CACHE_KIND = 'embedding';

/**
 * An embedder that remembers, in the artifact store, every vector it computed, and computes only
 * texts it has not seen. Why: a profile index is rebuilt whenever its database's data changes
 * (the profile version follows the content), yet most of its texts (table and column names,
 * documentation) do not change; a neural model then spent milliseconds per column, a paid
 * endpoint money, to compute the same vectors again. Databases that share a schema (copies,
 * tenants) share vectors too. The name is part of the key, so a new model never reads an old
 * model's vectors. Vectors are stored exactly (float32 bytes, base64).
 */
export class CachedEmbedder implements Embedder {
  readonly name: string;
  readonly dimension: number;

  constructor(
    private readonly inner: Embedder,
    private readonly store: ArtifactStore,
  ) {
    this.name = inner.name;
    this.dimension = inner.dimension;
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    const keys = texts.map((text) => `${this.name}/${createHash('sha256').update(text).digest('hex')}`);
    const vectors: (Float32Array | undefined)[] = [];
    for (const key of keys) vectors.push(this.decode(await this.store.get<string>(EMBEDDING_CACHE_KIND, key)));
    // Each text not remembered, once (a batch may repeat one).
    const missing = new Map<string, number[]>();
    vectors.forEach((v, i) => v === undefined && missing.set(keys[i], [...(missing.get(keys[i]) ?? []), i]));
    if (missing.size === 0) return vectors as Float32Array[];
    const positions = [...missing.values()];
    const fresh = await this.inner.embed(positions.map(([first]) => texts[first]));
    for (const [n, at] of positions.entries()) {
      await this.store.put(EMBEDDING_CACHE_KIND, keys[at[0]], Buffer.from(fresh[n].buffer, fresh[n].byteOffset, fresh[n].byteLength).toString('base64'));
      for (const i of at) vectors[i] = fresh[n];
    }
    return vectors as Float32Array[];
  }

  /** A stored vector, or undefined when there is none or it is not of this dimension (then it is computed again). */
  private decode(stored: string | undefined): Float32Array | undefined {
    if (typeof stored !== 'string') return undefined;
    const bytes = Buffer.from(stored, 'base64');
    if (bytes.byteLength !== this.dimension * 4) return undefined;
    // A copy: the decoded buffer may be a slice of Node's shared pool, not aligned for floats.
    return new Float32Array(new Uint8Array(bytes).buffer);
  }
}
