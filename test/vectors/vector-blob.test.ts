import { decodeVectorBlob, encodeVectorBlob } from '../../activities/vectors/vector-blob';

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
});
