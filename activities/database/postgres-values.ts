import { encodeSqlValue, type SqlValue } from '../../core/sql-value';
import { decodeDecimal } from './mysql-values';

/** PostgreSQL type OIDs decodex reads as something other than their text (pg_type.dat). */
const OID = { bool: 16, bytea: 17, int8: 20, int2: 21, int4: 23, oid: 26, float4: 700, float8: 701, numeric: 1700 } as const;

/**
 * How PostgreSQL values (text format) become SqlValues, the same way the other engines' do:
 * - int2/int4/oid: numbers; int8 (every COUNT, SUM of integers): exact, `{ int }` beyond 2^53;
 * - numeric (AVG, SUM of int8, DECIMAL columns): decodeDecimal, as MySQL's DECIMAL;
 * - float4/float8: numbers; NaN and ±Infinity stay text (no JSON number holds them);
 * - boolean: 1 or 0, as MySQL's BOOLEAN and SQLite's stored booleans;
 * - bytea: `{ bytes }`;
 * - everything else (dates and times, json, arrays, ranges, ...): the server's own text, never
 *   shifted through a JS Date (the session pins DateStyle ISO and TimeZone UTC).
 */
export function postgresValueParser(oid: number): (text: string) => SqlValue {
  switch (oid) {
    case OID.int2:
    case OID.int4:
    case OID.oid:
      return Number;
    case OID.int8:
      return (text) => encodeSqlValue(BigInt(text));
    case OID.numeric:
      return decodeDecimal;
    case OID.float4:
    case OID.float8:
      return (text) => (Number.isFinite(Number(text)) ? Number(text) : text);
    case OID.bool:
      return (text) => (text === 't' ? 1 : 0);
    case OID.bytea:
      return (text) => encodeSqlValue(Buffer.from(text.slice(2), 'hex'));
    default:
      return (text) => text;
  }
}

/** For pg's `types` option: every value in text format through postgresValueParser. */
export const POSTGRES_TYPES = {
  getTypeParser: (oid: number) => postgresValueParser(oid),
};
