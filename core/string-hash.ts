/**
 * A fast, pure 32-bit string hash (FNV-1a over UTF-16 code units, then murmur3's finaliser to
 * spread the bits). Pure JavaScript, so workflow code may use it too; not for security.
 */
export function stringHash32(text: string, seed = 0): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return murmurFinalMix(h);
}

/** murmur3's 32-bit finaliser: spreads every input bit over the output (unsigned result). */
export function murmurFinalMix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** 64 bits as 16 hex digits, from two differently seeded 32-bit hashes. */
export function stringHash64Hex(text: string): string {
  return [0x9e3779b9, 0x7f4a7c15].map((seed) => stringHash32(text, seed).toString(16).padStart(8, '0')).join('');
}
