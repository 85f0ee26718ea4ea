import { isBigIntValue, isBytesValue, type SqlValue } from '../sql-value';

/**
 * What a column's values look like, whatever its declared type says (§3.1.1: "declared
 * datatypes (e.g., TEXT) reveal little about the actual format"). Numbers stored as text,
 * dates as strings and short codes are the usual traps for SQL generation.
 */
export type ValueFormat =
  | 'integer'
  | 'decimal'
  | 'integer_as_text'
  | 'decimal_as_text'
  | 'year'
  | 'date'
  | 'datetime'
  | 'time'
  | 'boolean_like'
  | 'email'
  | 'url'
  | 'code'
  | 'text'
  | 'binary'
  | 'empty';

const PATTERNS: [ValueFormat, RegExp][] = [
  ['integer_as_text', /^[+-]?\d+$/],
  ['decimal_as_text', /^[+-]?(\d+\.\d*|\.\d+)([eE][+-]?\d+)?$/],
  ['datetime', /^\d{4}[-/]\d{1,2}[-/]\d{1,2}[ T]\d{1,2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/],
  ['date', /^(\d{4}[-/.]\d{1,2}[-/.]\d{1,2}|\d{1,2}[-/.]\d{1,2}[-/.]\d{2,4}|[A-Za-z]{3,9}\.? \d{1,2},? \d{4}|\d{1,2} [A-Za-z]{3,9}\.? \d{4})$/],
  ['time', /^\d{1,2}:\d{2}(:\d{2}(\.\d+)?)?( ?[AaPp][Mm])?$/],
  ['boolean_like', /^(true|false|yes|no|y|n|t|f)$/i],
  ['email', /^[^@\s]+@[^@\s]+\.[A-Za-z]{2,}$/],
  ['url', /^(https?|ftp):\/\/\S+$/i],
  // Short, no spaces, upper-case letters with digits or separators: airport codes, product codes.
  ['code', /^(?=.*[A-Z0-9])[A-Z0-9][A-Z0-9_\-./]{0,15}$/],
];

/** The format of one value. */
export function formatOfValue(value: SqlValue): ValueFormat | null {
  if (value === null) return null;
  if (typeof value === 'number') {
    if (!Number.isInteger(value)) return 'decimal';
    return value >= 1800 && value <= 2100 ? 'year' : 'integer';
  }
  if (isBigIntValue(value)) return 'integer';
  if (isBytesValue(value)) return 'binary';
  const text = value.trim();
  if (text === '') return 'text';
  for (const [format, pattern] of PATTERNS) if (pattern.test(text)) return format;
  return 'text';
}

/** Formats that are the same kind of thing: a column of years and other integers is integers. */
const GENERALISES: Partial<Record<ValueFormat, ValueFormat>> = { year: 'integer', boolean_like: 'text', code: 'text' };

/**
 * The format most of `values` share, and which share fits it. When the values do not all share
 * one specific format, specific ones count as their general form (years among integers are
 * integers, codes among words are text) and the majority of those wins.
 */
export function inferValueFormat(values: SqlValue[]): { format: ValueFormat; consistency: number } {
  const formats = values.map(formatOfValue).filter((f): f is ValueFormat => f !== null);
  if (formats.length === 0) return { format: 'empty', consistency: 1 };
  const [specific, specificCount] = majority(formats);
  if (specificCount === formats.length) return { format: specific, consistency: 1 };
  const [general, generalCount] = majority(formats.map((f) => GENERALISES[f] ?? f));
  return { format: general, consistency: round(generalCount / formats.length) };
}

/** The most frequent item and its count; ties go to the alphabetically first, for stable output. */
function majority(items: ValueFormat[]): [ValueFormat, number] {
  const counts = new Map<ValueFormat, number>();
  for (const item of items) counts.set(item, (counts.get(item) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0];
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}
