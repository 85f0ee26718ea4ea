import { decodeVectorBlob, encodeScaledVectorBlob, encodeVectorBlob, type BlobScratch } from '../../activities/vectors/vector-blob';

describe('vector blobs', () => {
  const roundTrip = (vector: Float32Array) => {
    const target = new Float32Array(vector.length).fill(9); // stale values must be overwritten
    decodeVectorBlob(encodeVectorBlob(vector), target, { bytes: new Uint8Array(0) });
    return target;
  };

  it('stores a mostly-zero vector sparse (8 bytes per non-zero) and restores it exactly', () => {
    const vector = new Float32Array(256);
    vector[3] = 0.25;
    vector[200] = -0.5;
    vector[255] = 0.125;
    expect(encodeVectorBlob(vector)).toHaveLength(24);
    expect(Array.from(roundTrip(vector))).toEqual(Array.from(vector));
  });

  it('stores a dense vector as plain float32s and restores it exactly', () => {
    const vector = Float32Array.from({ length: 8 }, (_, i) => (i % 3 === 0 ? 0 : i / 10));
    expect(encodeVectorBlob(vector)).toHaveLength(32);
    expect(Array.from(roundTrip(vector))).toEqual(Array.from(vector));
  });

  it('decodes from an unaligned buffer and rejects lengths that fit no format', () => {
    const vector = new Float32Array(64);
    vector[10] = 1;
    const blob = encodeVectorBlob(vector);
    const unaligned = new Uint8Array(blob.length + 1).subarray(1);
    unaligned.set(blob);
    const target = new Float32Array(64);
    decodeVectorBlob(unaligned, target, { bytes: new Uint8Array(0) });
    expect(target[10]).toBe(1);
    expect(() => decodeVectorBlob(new Uint8Array(12), target, { bytes: new Uint8Array(0) })).toThrow(/neither format/);
  });

  it('writes a scaled vector into reused bytes: the same blob as its scaled float32 copy, no new buffer per vector', () => {
    const scratch: BlobScratch = { bytes: Buffer.alloc(0) };
    const sparse = Array.from({ length: 256 }, (_, i) => (i % 50 === 7 ? i / 3 : 0));
    const dense = Array.from({ length: 8 }, (_, i) => (i % 3 === 0 ? 0 : i * 1.7));
    const scale = 1 / 7.3;
    const decode = (blob: Buffer, dimension: number) => {
      const target = new Float32Array(dimension);
      decodeVectorBlob(blob, target, { bytes: new Uint8Array(0) });
      return Array.from(target);
    };
    const sparseBlob = encodeScaledVectorBlob(sparse, scale, scratch);
    expect(sparseBlob).toHaveLength(5 * 8); // i = 7, 57, 107, 157, 207
    expect(decode(sparseBlob, 256)).toEqual(Array.from(Float32Array.from(sparse, (x) => x * scale)));
    const bytes = scratch.bytes;
    const denseBlob = encodeScaledVectorBlob(dense, scale, scratch);
    expect(denseBlob).toHaveLength(32);
    expect(decode(denseBlob, 8)).toEqual(Array.from(Float32Array.from(dense, (x) => x * scale)));
    // The second blob was written into the first one's bytes.
    expect(scratch.bytes).toBe(bytes);
    expect(denseBlob.buffer).toBe(bytes.buffer);
  });

  it('counts a component that rounds to zero in float32 as zero, as a Float32Array copy would', () => {
    const vector = new Float32Array(16);
    vector[2] = 1;
    vector[5] = 1e-30; // × 1e-20 underflows float32
    expect(encodeScaledVectorBlob(vector, 1e-20, { bytes: Buffer.alloc(0) })).toHaveLength(8);
  });
});
