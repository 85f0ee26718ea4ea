import type { CellPosition, SqlRow, SqlValue } from './sql-value';

/** Byte limits of a result that travels through Temporal (payloads are limited to about 2 MB). */
export interface ResultByteLimits {
  /** A text or BLOB cell longer than this (UTF-8 bytes of text, raw bytes of a BLOB) is cut to it. */
  maxCellBytes: number;
  /** Rows are kept while their JSON stays within this; the rest are dropped. */
  maxResultBytes: number;
}

/** What the byte limits did to a result: the caller sees the data is not whole, and why. */
export interface ByteTruncation {
  maxCellBytes: number;
  maxResultBytes: number;
  /** How many cells were cut to maxCellBytes. */
  cutCells: number;
  /** The first cut cells (at most MAX_LISTED_CELLS), as [row, column]. */
  cutCellPositions: CellPosition[];
  /** Rows dropped to stay within maxResultBytes. */
  droppedRows: number;
}

const MAX_LISTED_CELLS = 100;

/** Refuses byte limits that would silently mean something else. */
export function checkResultByteLimits({ maxCellBytes, maxResultBytes }: ResultByteLimits): void {
  if (!(Number.isSafeInteger(maxCellBytes) && maxCellBytes >= 16)) throw new RangeError(`maxCellBytes must be an integer ≥ 16, got ${maxCellBytes}`);
  if (!(Number.isSafeInteger(maxResultBytes) && maxResultBytes >= 1024))
    throw new RangeError(`maxResultBytes must be an integer ≥ 1024, got ${maxResultBytes}`);
}

/**
 * Bounds a result in bytes as well as rows: each long cell is cut to `maxCellBytes` and rows
 * are kept only while the rows' JSON fits in `maxResultBytes`. `truncation` is null when nothing
 * was cut. Pure: the same rows give the same bounded rows.
 */
export function boundRowBytes(rows: SqlRow[], limits: ResultByteLimits): { rows: SqlRow[]; truncation: ByteTruncation | null } {
  checkResultByteLimits(limits);
  const kept: SqlRow[] = [];
  const positions: CellPosition[] = [];
  let cutCells = 0;
  let total = 2; // the array's brackets
  for (const [r, row] of rows.entries()) {
    const cutHere: CellPosition[] = [];
    const bounded = row.map((value, c) => {
      const cut = cutCell(value, limits.maxCellBytes);
      if (cut !== value) cutHere.push([r, c]);
      return cut;
    });
    const size = Buffer.byteLength(JSON.stringify(bounded)) + 1;
    if (total + size > limits.maxResultBytes) break;
    total += size;
    kept.push(bounded);
    cutCells += cutHere.length;
    positions.push(...cutHere.slice(0, MAX_LISTED_CELLS - positions.length));
  }
  const droppedRows = rows.length - kept.length;
  if (!cutCells && !droppedRows) return { rows, truncation: null };
  return {
    rows: kept,
    truncation: { maxCellBytes: limits.maxCellBytes, maxResultBytes: limits.maxResultBytes, cutCells, cutCellPositions: positions, droppedRows },
  };
}

/** Bytes a cell cut while reading keeps past `maxCellBytes` (one UTF-8 character, or one base64 group). */
const READ_SLACK_BYTES = 4;

/**
 * A cell as a statement's rows are read, cut to a little more than `maxCellBytes`: the rows kept
 * in memory, and counted against its bound, are then what the answer can hold, so large cells
 * (a 1 MB BLOB a row) are answered cut instead of failing as out of memory. The slack keeps the
 * cell longer than the limit, so boundRowBytes still cuts it to the limit and counts it as cut.
 * Takes an encoded value, or an engine's raw BLOB (cut before it is ever base64-encoded).
 */
export function cutCellWhileReading<T>(value: T, maxCellBytes: number): T {
  const max = maxCellBytes + READ_SLACK_BYTES;
  // Raw bytes: three more than the base64 limit holds whole, so the encoded cell is still cut (and counted).
  if (value instanceof Uint8Array) return value.subarray(0, Math.floor(max / 3) * 3 + 3) as T;
  return cutCell(value as SqlValue, max) as T;
}

function cutCell(value: SqlValue, maxBytes: number): SqlValue {
  if (typeof value === 'string') {
    if (value.length <= maxBytes / 3 || Buffer.byteLength(value) <= maxBytes) return value;
    // Its first maxBytes characters hold at least maxBytes bytes: only they are encoded.
    return cutUtf8(value.slice(0, maxBytes), maxBytes);
  }
  if (value && typeof value === 'object' && 'bytes' in value) {
    const maxBase64 = Math.floor(maxBytes / 3) * 4;
    // A copy, not a slice: V8 may keep a slice pointing into the whole (1 MB) string, and every kept row would hold it.
    return value.bytes.length <= maxBase64 ? value : { bytes: Buffer.from(value.bytes.slice(0, maxBase64), 'latin1').toString('latin1') };
  }
  return value;
}

/** The longest prefix of `text` whose UTF-8 fits in `maxBytes`, never splitting a character. */
function cutUtf8(text: string, maxBytes: number): string {
  const bytes = Buffer.from(text);
  let end = maxBytes;
  while (end > 0 && (bytes[end] & 0xc0) === 0x80) end--; // back off to a character's first byte
  return bytes.subarray(0, end).toString('utf8');
}
