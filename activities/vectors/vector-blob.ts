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
  let nonZeros = 0;
  for (let i = 0; i < vector.length; i++) if (vector[i] !== 0) nonZeros++;
  if (nonZeros * 2 >= vector.length) {
    return Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
  }
  const indices = new Uint32Array(nonZeros);
  const values = new Float32Array(nonZeros);
  let j = 0;
  for (let i = 0; i < vector.length; i++) {
    if (vector[i] !== 0) {
      indices[j] = i;
      values[j++] = vector[i];
    }
  }
  return Buffer.concat([new Uint8Array(indices.buffer), new Uint8Array(values.buffer)]);
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
