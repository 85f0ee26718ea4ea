/**
 * Ground truth for recall: exact cosine top-k by brute force over every vector, independent of
 * both stores (the embedded store is exact too, but a store is not its own referee).
 */
export class ExactTopK {
  private readonly units: Float32Array[];
  private readonly rowOf = new Map<string, number>();

  constructor(
    private readonly ids: string[],
    vectors: Float32Array[],
  ) {
    this.units = vectors.map(unit);
    ids.forEach((id, row) => this.rowOf.set(id, row));
  }

  /** Exact cosine of a stored id with the query. */
  score(query: Float32Array, id: string): number {
    const row = this.rowOf.get(id);
    if (row === undefined) throw new Error(`unknown id ${id}`);
    return dot(unit(query), this.units[row]);
  }

  /** The k-th best exact score: a hit scoring at least this is a true neighbour, whatever ties it broke. */
  kthScore(query: Float32Array, k: number): number {
    const q = unit(query);
    // Only the query's non-zero dimensions contribute: hashed vectors have a few dozen of 256.
    const dims = [...q.keys()].filter((d) => q[d] !== 0);
    const best: number[] = [];
    for (const v of this.units) {
      let s = 0;
      for (const d of dims) s += q[d] * v[d];
      if (best.length < k || s > best[best.length - 1]) {
        best.push(s);
        best.sort((a, b) => b - a);
        if (best.length > k) best.pop();
      }
    }
    return best[best.length - 1] ?? Number.NEGATIVE_INFINITY;
  }

  /**
   * Share of `hitIds` (at most k counted) that are true top-k neighbours, given the query's
   * `kthScore`; a hit tied with the k-th is as true as the one it displaced.
   */
  recall(query: Float32Array, hitIds: string[], k: number, kthScore: number): number {
    const threshold = kthScore - 1e-5;
    const correct = hitIds.slice(0, k).filter((id) => this.score(query, id) >= threshold).length;
    return correct / Math.min(k, this.ids.length);
  }
}

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

function unit(v: Float32Array): Float32Array {
  const norm = Math.sqrt(dot(v, v));
  return norm === 0 ? v : v.map((x) => x / norm);
}
