import { VectorStoreError } from './vector-store';

/**
 * How the embedded store writes a vector into SQLite. Hashed-embedder vectors have ~10-40
 * non-zeros out of 256, so they are stored sparse: `nnz` uint32 indices then `nnz` float32
 * values (8 bytes per non-zero, ~200 B instead of 1 KB), which makes the file ~5x smaller and
 * loading and writing faster. Dense vectors are stored as `dimension` float32s.
 *
 * Sparse is used only when nnz < dimension / 2, so a sparse blob is always shorter than
 * 4 x dimension bytes and the length alone tells the formats apart. Little-endian, as on every
 * platform Node runs on.
 */
export function encodeVectorBlob(vector: Float32Array): Buffer {
  return Buffer.from(encodeScaledVectorBlob(vector, 1, { bytes: Buffer.alloc(0) }));
}

/** Bytes reused by encodeScaledVectorBlob; they grow to the longest blob written. */
export interface BlobScratch {
  bytes: Buffer;
}

/**
 * The blob of `vector × scale`, written into `scratch` and returned as a view of it, valid until
 * the next call. better-sqlite3 copies a blob when it binds it, so a writer that binds the view at
 * once allocates no ArrayBuffer per vector: the value index writes ~184k vectors for Spider, and a
 * unit copy, index and value arrays and a concatenated Buffer for each were ~2.5 KB per value for
 * the garbage collector.
 */
export function encodeScaledVectorBlob(vector: Float32Array | number[], scale: number, scratch: BlobScratch): Buffer {
  const dimension = vector.length;
  let nonZeros = 0;
  // Math.fround: a component is zero when its stored float32 is, as in a Float32Array copy.
  for (let i = 0; i < dimension; i++) if (Math.fround(vector[i] * scale) !== 0) nonZeros++;
  const sparse = nonZeros * 2 < dimension;
  const length = sparse ? nonZeros * 8 : dimension * 4;
  if (scratch.bytes.length < length) scratch.bytes = Buffer.allocUnsafe(dimension * 4);
  const out = scratch.bytes;
  if (!sparse) {
    for (let i = 0; i < dimension; i++) out.writeFloatLE(vector[i] * scale, i * 4);
    return out.subarray(0, length);
  }
  let j = 0;
  for (let i = 0; i < dimension; i++) {
    const value = Math.fround(vector[i] * scale);
    if (value === 0) continue;
    out.writeUInt32LE(i, j * 4);
    out.writeFloatLE(value, (nonZeros + j) * 4);
    j++;
  }
  return out.subarray(0, length);
}

/**
 * Decodes into `target` (length = dimension), overwriting all of it. `scratch` is reused
 * across calls to avoid allocating per row; it is copied through because SQLite's buffers need
 * not be 4-byte aligned for typed-array views.
 */
export function decodeVectorBlob(blob: Uint8Array, target: Float32Array, scratch: { bytes: Uint8Array }): void {
  const dimension = target.length;
  if (blob.length === dimension * 4) {
    new Uint8Array(target.buffer, target.byteOffset, target.byteLength).set(blob);
    return;
  }
  if (blob.length % 8 !== 0 || blob.length >= dimension * 4) {
    throw new VectorStoreError(`stored vector of ${blob.length} bytes fits neither format for dimension ${dimension}`);
  }
  if (scratch.bytes.length < blob.length) scratch.bytes = new Uint8Array(blob.length * 2);
  scratch.bytes.set(blob);
  const nonZeros = blob.length / 8;
  const indices = new Uint32Array(scratch.bytes.buffer, 0, nonZeros);
  const values = new Float32Array(scratch.bytes.buffer, nonZeros * 4, nonZeros);
  target.fill(0);
  for (let j = 0; j < nonZeros; j++) {
    const index = indices[j];
    if (index >= dimension) throw new VectorStoreError(`stored sparse vector has index ${index} >= ${dimension}`);
    target[index] = values[j];
  }
}
