import { isBigIntValue, type SqlRow, type SqlValue } from '../core/sql-value';

/**
 * Value equality across engines: numbers compare numerically (MariaDB returns AVG and integer
 * division as DECIMAL with 4 decimals where SQLite returns a double), including a decimal that
 * came back as exact text; everything else must be identical.
 */
export function sameValue(a: SqlValue, b: SqlValue): boolean {
  const x = asNumber(a);
  const y = asNumber(b);
  if (x !== null && y !== null) {
    const integral = (n: number | bigint) => typeof n === 'bigint' || Number.isInteger(n);
    if ((typeof x === 'bigint' || typeof y === 'bigint') && integral(x) && integral(y)) return BigInt(x) === BigInt(y);
    const [p, q] = [Number(x), Number(y)];
    return Math.abs(p - q) <= 1e-4 + 1e-9 * Math.max(Math.abs(p), Math.abs(q));
  }
  return JSON.stringify(a) === JSON.stringify(b);
}

function asNumber(v: SqlValue): number | bigint | null {
  if (typeof v === 'number') return v;
  if (isBigIntValue(v)) return BigInt(v.int);
  // Only what decodeDecimal leaves as text: a decimal too precise for a double. Text such as '3.5' stays text.
  if (typeof v === 'string' && /^-?\d+\.\d+$/.test(v) && v.replace(/\D|^[-0.]+/g, '').length > 15) return Number(v);
  return null;
}

export function sameRow(a: SqlRow, b: SqlRow): boolean {
  return a.length === b.length && a.every((v, i) => sameValue(v, b[i]));
}

/** Same rows as multisets (order ignored, duplicates counted). */
export function sameRowMultiset(a: SqlRow[], b: SqlRow[]): boolean {
  if (a.length !== b.length) return false;
  const unused = [...b];
  for (const row of a) {
    const i = unused.findIndex((candidate) => sameRow(row, candidate));
    if (i < 0) return false;
    unused.splice(i, 1);
  }
  return true;
}
