/**
 * Splits SQL at top-level INTERSECT / EXCEPT (outside parentheses, strings, quoted names and
 * comments). node-sql-parser's SQLite grammar has UNION but neither of these, so its adapter parses
 * each side on its own. All compound operators in SQLite share one precedence and associate left,
 * so the parts read left to right are the branches of the same compound.
 */
export interface SqlPart {
  text: string;
  /** Where the part starts in the original SQL, to map parser positions back. */
  offset: number;
}

const SPLIT_KEYWORDS = new Set(['INTERSECT', 'EXCEPT']);

/** `backslashEscapes`: MySQL strings treat `\'` as an escaped quote; SQLite strings do not. */
export function splitAtIntersectExcept(sql: string, backslashEscapes: boolean): SqlPart[] {
  const parts: SqlPart[] = [];
  let partStart = 0;
  let depth = 0;
  let i = 0;
  while (i < sql.length) {
    const c = sql[i];
    if (c === "'" || c === '"' || c === '`') i = skipQuoted(sql, i, c, backslashEscapes && c !== '`');
    else if (c === '[') i = skipUntil(sql, i + 1, ']');
    else if (c === '-' && sql[i + 1] === '-') i = skipUntil(sql, i + 2, '\n');
    else if (c === '/' && sql[i + 1] === '*') i = skipUntil(sql, i + 2, '*/');
    else if (c === '(' || c === ')') {
      depth += c === '(' ? 1 : -1;
      i++;
    } else if (/[A-Za-z_]/.test(c)) {
      let end = i;
      while (end < sql.length && /[A-Za-z0-9_$]/.test(sql[end])) end++;
      const word = sql.slice(i, end).toUpperCase();
      if (depth === 0 && SPLIT_KEYWORDS.has(word)) {
        parts.push({ text: sql.slice(partStart, i), offset: partStart });
        // EXCEPT ALL / INTERSECT ALL are not SQLite, but keep ALL with the operator if written.
        const after = /^\s+ALL\b/i.exec(sql.slice(end));
        partStart = end + (after ? after[0].length : 0);
      }
      i = end;
    } else i++;
  }
  parts.push({ text: sql.slice(partStart), offset: partStart });
  return parts;
}

/** Index just past a quoted token; a doubled quote inside is an escaped quote. */
function skipQuoted(sql: string, start: number, quote: string, backslashEscapes: boolean): number {
  let i = start + 1;
  while (i < sql.length) {
    if (backslashEscapes && sql[i] === '\\') i += 2;
    else if (sql[i] === quote) {
      if (sql[i + 1] === quote) i += 2;
      else return i + 1;
    } else i++;
  }
  return i;
}

function skipUntil(sql: string, from: number, terminator: string): number {
  const end = sql.indexOf(terminator, from);
  return end < 0 ? sql.length : end + terminator.length;
}
