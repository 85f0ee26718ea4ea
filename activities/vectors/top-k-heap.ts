/**
 * Keeps the k best (score, row) pairs seen so far in a min-heap of typed arrays, so a scan over
 * n rows costs O(n log k) and allocates nothing per row. Equal scores prefer the lower row,
 * which makes results deterministic for a given insertion order.
 */
export class TopKHeap {
  private readonly scores: Float64Array;
  private readonly rows: Int32Array;
  private size = 0;

  constructor(private readonly k: number) {
    this.scores = new Float64Array(k);
    this.rows = new Int32Array(k);
  }

  /** Offers a candidate; cheap rejection first since most rows of a large scan lose. */
  offer(score: number, row: number): void {
    if (this.size < this.k) {
      this.scores[this.size] = score;
      this.rows[this.size] = row;
      this.siftUp(this.size++);
      return;
    }
    if (!isBetter(score, row, this.scores[0], this.rows[0])) return;
    this.scores[0] = score;
    this.rows[0] = row;
    this.siftDown(0);
  }

  /** Worst kept score, or -Infinity while fewer than k are kept (a bound for pruning). */
  threshold(): number {
    return this.size < this.k ? -Infinity : this.scores[0];
  }

  /** The kept pairs, best first. */
  sorted(): { score: number; row: number }[] {
    const out: { score: number; row: number }[] = [];
    for (let i = 0; i < this.size; i++) out.push({ score: this.scores[i], row: this.rows[i] });
    return out.sort((a, b) => b.score - a.score || a.row - b.row);
  }

  private siftUp(i: number): void {
    while (i > 0) {
      const parent = (i - 1) >> 1;
      // The root holds the worst pair: move up while we are worse than the parent.
      if (!isBetter(this.scores[parent], this.rows[parent], this.scores[i], this.rows[i])) break;
      this.swap(i, parent);
      i = parent;
    }
  }

  private siftDown(i: number): void {
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let worst = i;
      if (left < this.size && isBetter(this.scores[worst], this.rows[worst], this.scores[left], this.rows[left])) worst = left;
      if (right < this.size && isBetter(this.scores[worst], this.rows[worst], this.scores[right], this.rows[right])) worst = right;
      if (worst === i) return;
      this.swap(i, worst);
      i = worst;
    }
  }

  private swap(a: number, b: number): void {
    const s = this.scores[a];
    this.scores[a] = this.scores[b];
    this.scores[b] = s;
    const r = this.rows[a];
    this.rows[a] = this.rows[b];
    this.rows[b] = r;
  }
}

function isBetter(scoreA: number, rowA: number, scoreB: number, rowB: number): boolean {
  return scoreA > scoreB || (scoreA === scoreB && rowA < rowB);
}
