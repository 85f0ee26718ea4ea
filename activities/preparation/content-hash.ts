import { createHash } from 'node:crypto';

/** Short SHA-256 of a JSON value with sorted keys: equal content, equal hash, in any key order. */
export function contentHash(value: unknown, length = 16): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex').slice(0, length);
}

export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}
