/** Fault injection for the scripted LLM: which request fails, and how, decided by a seeded PRNG. */

/**
 * - 429 (with a Retry-After header of `retryAfterSeconds`), 500: error answers;
 * - slow: the answer comes after `slowMs` (past a client timeout);
 * - malformed: a 200 whose text is cut-off JSON;
 * - truncated: a 200 whose HTTP body stops half-way and the connection drops (a broken stream);
 * - schema-invalid: a 200 with well-formed JSON that does not fit the answer's schema.
 */
export type FaultKind = '429' | '500' | 'slow' | 'malformed' | 'truncated' | 'schema-invalid';

export interface FaultOptions {
  /** Probability (0..1) that a request gets a fault. */
  rate: number;
  /** Faults to pick from, uniformly; default the first four (429, 500, slow, malformed). */
  kinds?: FaultKind[];
  /** Same seed, same sequence of faults over the same sequence of requests. */
  seed?: number;
  /** How long a 'slow' answer waits before it is sent; default 5000 ms (past a small client timeout). */
  slowMs?: number;
  /** Retry-After of a 429, in seconds; default 1. */
  retryAfterSeconds?: number;
}

const ALL_KINDS: FaultKind[] = ['429', '500', 'slow', 'malformed'];
export const DEFAULT_SLOW_MS = 5000;

/** mulberry32: tiny, fast, and the same on every platform, which is all a test needs. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A picker that, called once per request, says which fault (if any) that request gets. */
export function faultPicker(options: FaultOptions | undefined): () => FaultKind | null {
  if (!options || options.rate <= 0) return () => null;
  if (options.rate > 1) throw new Error(`fault rate must be within 0..1, got ${options.rate}`);
  const kinds = options.kinds && options.kinds.length > 0 ? options.kinds : ALL_KINDS;
  const random = seededRandom(options.seed ?? 1);
  return () => {
    // Always draw twice so one request's outcome never shifts the sequence of the next ones.
    const hit = random() < options.rate;
    const kind = kinds[Math.floor(random() * kinds.length)];
    return hit ? kind : null;
  };
}
