/**
 * Values read from a target database, in a form that survives JSON (Temporal payloads,
 * artifacts, reports) without losing anything:
 * - integers inside ±(2^53-1) and all floats are plain numbers;
 * - integers outside that range are `{ int: "<decimal digits>" }` (never rounded);
 * - BLOBs are `{ bytes: "<base64>" }`;
 * - NULL stays `null`; text stays a string.
 */
export type BigIntValue = { int: string };
export type BytesValue = { bytes: string };
export type SqlValue = null | number | string | BigIntValue | BytesValue;
export type SqlRow = SqlValue[];

/**
 * Row and column of a result cell that SQLite stored as REAL although its value is whole
 * (1.0). As a JavaScript number (and in JSON) it is indistinguishable from INTEGER 1, but
 * Python's sqlite3 reads it as the float 1.0, and Spider's official evaluator can judge
 * (1, 1001) and (1.0, 1001) differently (see core/evaluation/spider-quick-rejection.ts).
 */
export type CellPosition = [row: number, column: number];

export function isBigIntValue(v: unknown): v is BigIntValue {
  return typeof v === 'object' && v !== null && typeof (v as BigIntValue).int === 'string';
}

export function isBytesValue(v: unknown): v is BytesValue {
  return typeof v === 'object' && v !== null && typeof (v as BytesValue).bytes === 'string';
}

/** Encode one driver value (number, bigint, string, Buffer/Uint8Array, null) as a SqlValue. */
export function encodeSqlValue(v: unknown): SqlValue {
  if (v === null || v === undefined) return null;
  if (typeof v === 'bigint') {
    return v <= BigInt(Number.MAX_SAFE_INTEGER) && v >= BigInt(Number.MIN_SAFE_INTEGER) ? Number(v) : { int: v.toString() };
  }
  if (typeof v === 'number' || typeof v === 'string') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (v instanceof Uint8Array) return { bytes: Buffer.from(v).toString('base64') };
  if (v instanceof Date) return v.toISOString();
  throw new Error(`cannot encode database value of type ${typeof v}`);
}

/** A comparable key for a value; equal keys iff Python-equal values (1 == 1.0, '1' != 1, None == None). */
export function sqlValueKey(v: SqlValue): string {
  if (v === null) return 'n:';
  if (typeof v === 'string') return 's:' + v;
  if (typeof v === 'number') {
    if (Number.isInteger(v)) return 'i:' + BigInt(v).toString();
    return 'f:' + v.toString();
  }
  if (isBigIntValue(v)) return 'i:' + BigInt(v.int).toString();
  return 'b:' + v.bytes;
}

/** Human-readable rendering for CLI tables and prompts. */
export function renderSqlValue(v: SqlValue): string {
  if (v === null) return 'NULL';
  if (typeof v === 'string' || typeof v === 'number') return String(v);
  if (isBigIntValue(v)) return v.int;
  return `<blob ${Buffer.from(v.bytes, 'base64').length} bytes>`;
}

/** Bytes a value takes in a result's JSON (strings counted as UTF-16 code units): what bounds a result's memory. */
export function sqlValueBytes(v: SqlValue): number {
  if (v === null) return 4;
  if (typeof v === 'number') return 24;
  if (typeof v === 'string') return v.length + 2;
  if (isBigIntValue(v)) return v.int.length + 10;
  return v.bytes.length + 12;
}
