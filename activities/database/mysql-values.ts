import type { TypeCast } from 'mysql2';
import { encodeSqlValue, type SqlValue } from '../../core/sql-value';

/**
 * How MySQL/MariaDB values become SqlValues (the pool also sets dateStrings and jsonStrings):
 * - BIGINT (and every COUNT/SUM of integers): exact, via BigInt, so beyond 2^53 it is `{ int }`;
 * - DECIMAL (also AVG, and SUM of integers on MySQL): see decodeDecimal;
 * - BLOB/BINARY/BIT/GEOMETRY: `{ bytes }`; NULL: null;
 * - DATE/DATETIME/TIMESTAMP/TIME: the server's own text ('2024-01-31', '2024-01-31 12:00:00'),
 *   never shifted through a JS Date and a time zone; this is also how SQLite stores dates;
 * - everything else as the driver reads it (numbers, strings).
 */
export const castMysqlField: TypeCast = (field, next) => {
  switch (field.type) {
    case 'LONGLONG': {
      const text = field.string('ascii');
      return text === null ? null : encodeSqlValue(BigInt(text));
    }
    case 'DECIMAL':
    case 'NEWDECIMAL':
      return decodeDecimal(field.string('ascii'));
    case 'GEOMETRY':
      return encodeSqlValue(field.buffer());
    default:
      return encodeSqlValue(next());
  }
};

/**
 * A DECIMAL as a SqlValue, losing nothing:
 * - a whole number ('42', '42.000') is an integer: a number, or `{ int }` beyond 2^53;
 * - a fraction is a number when that number prints back as the same decimal ('25.5000' -> 25.5,
 *   '0.1' -> 0.1), which holds up to 15 significant digits, so for ordinary AVG/SUM results;
 * - otherwise the exact decimal text (a string), rather than a silently rounded number.
 */
export function decodeDecimal(text: string | null): SqlValue {
  if (text === null) return null;
  const match = /^(-?\d+)(?:\.(\d*))?$/.exec(text);
  if (!match) return text;
  const [, whole, fraction = ''] = match;
  if (/^0*$/.test(fraction)) return encodeSqlValue(BigInt(whole));
  const n = Number(text);
  return Math.abs(n) < 1e21 && n.toFixed(fraction.length) === text ? n : text;
}
