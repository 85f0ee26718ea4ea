import { murmurFinalMix as finalMix } from '../../core/string-hash';
import type { Embedder } from './embedder';
import { normaliseInPlace } from './unit-vector';

/**
 * The default embedder: deterministic, no download, no network. It maps a text to a sparse bag
 * of features — lower-cased word unigrams plus character n-grams of each word with boundary
 * markers (fastText style: "cnty" → "<cn", "cnt", "nty", "ty>") — and folds them into
 * `dimension` buckets by signed feature hashing, then L2-normalises.
 *
 * Why this shape: value retrieval (DexterSQL §3.1.2) mostly needs to match a question's literal
 * to a differently written cell value ("alameda cnty" → "Alameda County"); shared n-grams give
 * that, and the signed hash keeps unrelated features from adding up in expectation.
 *
 * Speed matters (≈150k values per Spider build): one pass over char codes into a reused
 * Int32Array, hashes computed from the codes with Math.imul, no substring allocation.
 *
 * A text with no characters at all (empty or whitespace only) yields the zero vector, which
 * the vector stores reject: there is nothing to match.
 */
export interface HashedEmbedderOptions {
  /** Number of hash buckets, i.e. vector length. Default 256. */
  dimension?: number;
  /** Character n-gram length. Default 3. */
  ngram?: number;
}

export const DEFAULT_HASHED_DIMENSION = 256;

/** Bump when the features, hashing or weights change: indices built before are incomparable. */
const ALGORITHM_VERSION = 1;

const WORD_SEED = 0x9e3779b1 | 0;
const NGRAM_SEED = 0x7f4a7c15 | 0;
const RAW_SEED = 0x2545f491 | 0;
const FNV_PRIME = 0x01000193;
/**
 * A whole-word match counts on top of its n-grams, but only half as much: a typo loses the
 * word feature, and at weight 1 "elementry schol" fell to cosine 0.24 with "Elementary School"
 * (0.47 at 0.5), while unrelated values stay near 0 either way.
 */
const WORD_WEIGHT = 0.5;
/** Outside the UTF-16 code unit range, so it never equals a real character. */
const BOUNDARY = 0x110000;
/** Marks a separator in the normalised code buffer (0 is never kept as a word character). */
const SEPARATOR = 0;

export class HashedEmbedder implements Embedder {
  readonly name: string;
  readonly dimension: number;
  private readonly ngram: number;
  /** Reused across calls; holds the normalised code units of the current text. */
  private codes = new Int32Array(256);

  constructor(options: HashedEmbedderOptions = {}) {
    this.dimension = options.dimension ?? DEFAULT_HASHED_DIMENSION;
    this.ngram = options.ngram ?? 3;
    if (!Number.isInteger(this.dimension) || this.dimension < 2) {
      throw new RangeError(`hashed embedder dimension must be an integer >= 2, got ${this.dimension}`);
    }
    if (!Number.isInteger(this.ngram) || this.ngram < 1) {
      throw new RangeError(`hashed embedder ngram must be an integer >= 1, got ${this.ngram}`);
    }
    this.name = `hashed-v${ALGORITHM_VERSION}-w1-c${this.ngram}`;
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    return texts.map((text) => this.embedOne(text));
  }

  /** Synchronous form, for callers in a tight loop (index building, benchmarks). */
  embedOne(text: string): Float32Array {
    const vector = new Float32Array(this.dimension);
    const length = this.normalise(text);
    const codes = this.codes;
    let features = 0;
    let start = -1;
    for (let i = 0; i <= length; i++) {
      const isWordChar = i < length && codes[i] !== SEPARATOR;
      if (isWordChar) {
        if (start < 0) start = i;
      } else if (start >= 0) {
        features += this.addWord(vector, start, i);
        start = -1;
      }
    }
    // Punctuation-only values ("%", "—") still deserve a distinct, matchable vector.
    if (features === 0 && text.trim().length > 0) this.addRaw(vector, text);
    normaliseInPlace(vector);
    return vector;
  }

  /**
   * Writes the lower-cased, diacritic-free code units of `text` into `this.codes`, with
   * SEPARATOR for anything that is not part of a word; returns the count written.
   */
  private normalise(text: string): number {
    // Only non-ASCII text pays for Unicode decomposition (to strip accents: "café" → "cafe").
    const source = isAscii(text) ? text : text.normalize('NFKD').toLowerCase();
    if (this.codes.length < source.length) this.codes = new Int32Array(source.length * 2);
    const codes = this.codes;
    let n = 0;
    for (let i = 0; i < source.length; i++) {
      let c = source.charCodeAt(i);
      if (c < 128) {
        if (c >= 65 && c <= 90) c += 32;
        else if (c === 39)
          continue; // apostrophe joins: "O'Brien" ~ "OBrien", "men's" ~ "mens"
        else if (!((c >= 97 && c <= 122) || (c >= 48 && c <= 57))) c = SEPARATOR;
      } else if (c >= 0x300 && c <= 0x36f) {
        continue; // combining accent left by NFKD
      } else if (c === 0x2019) {
        continue; // typographic apostrophe
      } else if (isNonAsciiSeparator(c)) {
        c = SEPARATOR;
      }
      codes[n++] = c;
    }
    return n;
  }

  /** Adds the word codes[start, end) and its boundary-marked n-grams; returns features added. */
  private addWord(vector: Float32Array, start: number, end: number): number {
    const codes = this.codes;
    const wordLength = end - start;
    let h = WORD_SEED;
    for (let i = start; i < end; i++) h = Math.imul(h ^ codes[i], FNV_PRIME);
    addFeature(vector, finalMix(h ^ wordLength), WORD_WEIGHT);

    // The word with a boundary marker on each side has wordLength + 2 positions.
    const boundedLength = wordLength + 2;
    const n = Math.min(this.ngram, boundedLength);
    const gramCount = boundedLength - n + 1;
    // Each word's n-grams together weigh about as much as the word itself, so long words
    // do not drown short ones.
    const gramWeight = 1 / Math.sqrt(gramCount);
    for (let p = 0; p < gramCount; p++) {
      let g = NGRAM_SEED;
      for (let j = p; j < p + n; j++) {
        const code = j === 0 || j === boundedLength - 1 ? BOUNDARY : codes[start + j - 1];
        g = Math.imul(g ^ code, FNV_PRIME);
      }
      addFeature(vector, finalMix(g ^ n), gramWeight);
    }
    return 1 + gramCount;
  }

  private addRaw(vector: Float32Array, text: string): void {
    let h = RAW_SEED;
    const trimmed = text.trim();
    for (let i = 0; i < trimmed.length; i++) h = Math.imul(h ^ trimmed.charCodeAt(i), FNV_PRIME);
    addFeature(vector, finalMix(h), 1);
  }
}

/** Signed feature hashing: low bits pick the bucket, the top bit the sign. */
function addFeature(vector: Float32Array, hash: number, weight: number): void {
  const bucket = hash % vector.length;
  vector[bucket] += hash & 0x80000000 ? -weight : weight;
}

function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 127) return false;
  return true;
}

/** Latin-1 punctuation/symbols, general punctuation, symbols, CJK and full-width punctuation. */
function isNonAsciiSeparator(c: number): boolean {
  if (c <= 0xbf) return c !== 0xaa && c !== 0xb5 && c !== 0xba; // keep ª µ º
  if (c === 0xd7 || c === 0xf7) return true; // × ÷
  if (c >= 0x2000 && c <= 0x2bff) return true;
  if (c >= 0x3000 && c <= 0x303f) return true;
  if (c >= 0xfe30 && c <= 0xfe4f) return true;
  if (c >= 0xff00 && c <= 0xff0f) return true;
  if (c >= 0xff1a && c <= 0xff20) return true;
  if (c >= 0xff3b && c <= 0xff40) return true;
  return c >= 0xff5b && c <= 0xff65;
}
