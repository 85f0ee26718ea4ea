import { TopKHeap } from './top-k-heap';
import type { Payload, SearchHit } from './vector-store';
import { matchesFilter } from './vector-validation';

/**
 * Exact in-memory cosine top-k over unit vectors (brute force, no approximation).
 *
 * Layout: rows are kept in blocks, and inside a block column-major (all rows' value of
 * dimension 0, then dimension 1, ...). A query then only reads the columns where it is
 * non-zero. The hashed embedder's vectors have ~10-40 non-zeros out of 256, so a search reads
 * a few MB instead of the whole matrix (150k x 256 x 4 B = 150 MB); dense queries (model
 * embeddings) read everything, sequentially, which is the best brute force can do.
 *
 * Blocks grow geometrically from 64 rows up to 4096, then stay at 4096: a small collection
 * costs little, and growth never copies existing rows.
 */
const FIRST_BLOCK_ROWS = 64;
const MAX_BLOCK_ROWS = 4096;
/** Below this share of matching rows in a block, score those rows one by one. */
const SPARSE_FILTER_SHARE = 1 / 8;

interface Block {
  /** First row held. */
  start: number;
  /** Rows this block can hold. */
  capacity: number;
  /** dimension x capacity, column-major. */
  data: Float32Array;
}

export class CosineIndex {
  private readonly blocks: Block[] = [];
  private readonly ids: string[] = [];
  private readonly payloads: Payload[] = [];
  private readonly rowOf = new Map<string, number>();
  private readonly scratch = new Float64Array(MAX_BLOCK_ROWS);

  constructor(readonly dimension: number) {}

  get size(): number {
    return this.ids.length;
  }

  /** Stores a unit vector under `id`, replacing any earlier vector and payload of that id. */
  put(id: string, unit: Float32Array, payload: Payload): void {
    let row = this.rowOf.get(id);
    const isNew = row === undefined;
    if (row === undefined) {
      row = this.ids.length;
      this.ids.push(id);
      this.payloads.push(payload);
      this.rowOf.set(id, row);
      if (row >= this.capacity()) this.addBlock();
    } else {
      this.payloads[row] = payload;
    }
    // A new row always lands in the last block.
    const block = isNew ? this.blocks[this.blocks.length - 1] : this.blockOf(row);
    const offset = row - block.start;
    const { data, capacity } = block;
    // A new row's slot is still zero (rows are never removed), so only non-zeros need a write:
    // for sparse vectors that is ~20 scattered writes instead of 256.
    if (isNew) {
      for (let d = 0; d < this.dimension; d++) if (unit[d] !== 0) data[d * capacity + offset] = unit[d];
    } else {
      for (let d = 0; d < this.dimension; d++) data[d * capacity + offset] = unit[d];
    }
  }

  /** Top-k by cosine against a unit query, best first; ties go to the earlier-inserted point. */
  search(unitQuery: Float32Array, k: number, filter?: Payload): SearchHit[] {
    const size = this.size;
    if (size === 0) return [];
    const { dims, weights } = nonZeros(unitQuery);
    const mask = filter && Object.keys(filter).length > 0 ? this.filterMask(filter) : undefined;
    const heap = new TopKHeap(k);
    for (const block of this.blocks) {
      if (block.start >= size) break;
      const rows = Math.min(block.capacity, size - block.start);
      const matching = mask ? countOnes(mask, block.start, rows) : rows;
      if (matching === 0) continue;
      if (mask && matching < rows * SPARSE_FILTER_SHARE) {
        this.scoreRowsOneByOne(block, rows, mask, dims, weights, heap);
      } else {
        this.scoreBlockByColumns(block, rows, mask, dims, weights, heap);
      }
    }
    return heap.sorted().map(({ score, row }) => ({
      id: this.ids[row],
      // Rounding can push a unit-vector dot product a hair past ±1.
      score: Math.max(-1, Math.min(1, score)),
      payload: { ...this.payloads[row] },
    }));
  }

  private scoreBlockByColumns(block: Block, rows: number, mask: Uint8Array | undefined, dims: Int32Array, weights: Float64Array, heap: TopKHeap): void {
    const scores = this.scratch;
    scores.fill(0, 0, rows);
    const { data, capacity } = block;
    for (let j = 0; j < dims.length; j++) {
      const weight = weights[j];
      const base = dims[j] * capacity;
      for (let r = 0; r < rows; r++) scores[r] += weight * data[base + r];
    }
    for (let r = 0; r < rows; r++) {
      if (mask && mask[block.start + r] === 0) continue;
      heap.offer(scores[r], block.start + r);
    }
  }

  private scoreRowsOneByOne(block: Block, rows: number, mask: Uint8Array, dims: Int32Array, weights: Float64Array, heap: TopKHeap): void {
    const { data, capacity } = block;
    for (let r = 0; r < rows; r++) {
      if (mask[block.start + r] === 0) continue;
      let score = 0;
      for (let j = 0; j < dims.length; j++) score += weights[j] * data[dims[j] * capacity + r];
      heap.offer(score, block.start + r);
    }
  }

  private filterMask(filter: Payload): Uint8Array {
    const mask = new Uint8Array(this.size);
    for (let row = 0; row < mask.length; row++) {
      if (matchesFilter(this.payloads[row], filter)) mask[row] = 1;
    }
    return mask;
  }

  private capacity(): number {
    const last = this.blocks[this.blocks.length - 1];
    return last ? last.start + last.capacity : 0;
  }

  private addBlock(): void {
    const last = this.blocks[this.blocks.length - 1];
    const capacity = last ? Math.min(last.capacity * 2, MAX_BLOCK_ROWS) : FIRST_BLOCK_ROWS;
    const start = this.capacity();
    this.blocks.push({ start, capacity, data: new Float32Array(this.dimension * capacity) });
  }

  /** Binary search over block starts (blocks are few: ~40 for 150k rows). */
  private blockOf(row: number): Block {
    let lo = 0;
    let hi = this.blocks.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.blocks[mid].start <= row) lo = mid;
      else hi = mid - 1;
    }
    return this.blocks[lo];
  }
}

function nonZeros(vector: Float32Array): { dims: Int32Array; weights: Float64Array } {
  let count = 0;
  for (let i = 0; i < vector.length; i++) if (vector[i] !== 0) count++;
  const dims = new Int32Array(count);
  const weights = new Float64Array(count);
  let j = 0;
  for (let i = 0; i < vector.length; i++) {
    if (vector[i] !== 0) {
      dims[j] = i;
      weights[j++] = vector[i];
    }
  }
  return { dims, weights };
}

function countOnes(mask: Uint8Array, start: number, length: number): number {
  let count = 0;
  for (let i = start; i < start + length; i++) count += mask[i];
  return count;
}
