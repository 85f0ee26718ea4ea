import { createHash } from 'node:crypto';

/**
 * A deterministic embedding by feature hashing: each lower-cased word adds +-1 to a dimension
 * chosen by its hash, then the vector is L2-normalised. Texts that share words get similar
 * vectors, so retrieval tests behave sensibly, and the same text always gets the same vector.
 */
export function hashEmbedding(text: string, dim: number): number[] {
  const vector = new Array<number>(dim).fill(0);
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? []) {
    const digest = createHash('sha256').update(word).digest();
    const index = digest.readUInt32BE(0) % dim;
    vector[index] += digest[4] & 1 ? 1 : -1;
  }
  const norm = Math.sqrt(vector.reduce((sum, x) => sum + x * x, 0));
  // A text without words (or whose words cancel out) still needs a unit vector.
  if (norm === 0) return vector.map((_, i) => (i === 0 ? 1 : 0));
  return vector.map((x) => x / norm);
}

/** The base64 form the openai SDK asks for by default (little-endian float32). */
export function embeddingToBase64(vector: number[]): string {
  return Buffer.from(new Float32Array(vector).buffer).toString('base64');
}
