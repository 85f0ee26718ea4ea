import { describePath, type JoinStep } from '../../core/exploration/join-paths';
import type { JoinStatistics, ValueOverlap } from '../../core/exploration/pair-types';
import type { ColumnRef } from '../../core/preparation/column-ref';
import type { SqlValue } from '../../core/sql-value';
import { quoteIdentifier } from '../database/sql-identifiers';
import type { TargetDatabase } from '../database/target-database';

/**
 * The deep-investigation measurements of DexterSQL §3.1.3 Step 3, as plain SQL on the target
 * database (read-only `execute`, each query bounded by `timeoutMs`). Deterministic: the same
 * data always gives the same numbers.
 *
 * "Exact" means byte for byte whatever the columns' collation: `=`, IN and COUNT(DISTINCT)
 * otherwise follow it, and on a usual MySQL database (utf8mb4_general_ci, PAD SPACE) 'Paris',
 * 'paris' and 'Paris ' would silently count as one value (in SQLite, a COLLATE NOCASE column
 * does the same). The case-insensitive variants compare the lower-cased values, byte for byte too.
 */
export class PairStatistics {
  constructor(
    private readonly db: TargetDatabase,
    private readonly timeoutMs: number,
  ) {}

  /**
   * Jaccard overlap of the distinct non-NULL value sets; with `lowerCase`, of the lower-cased
   * sets (the case-insensitive version the paper asks for on text columns).
   */
  async overlap(a: ColumnRef, b: ColumnRef, lowerCase: boolean, textual: boolean): Promise<ValueOverlap> {
    const value = (alias: string, ref: ColumnRef) => this.exact(lowerCase ? `LOWER(${this.col(alias, ref.column)})` : this.col(alias, ref.column), textual);
    const from = (alias: string, ref: ColumnRef) => `${this.id(ref.table)} AS ${alias} WHERE ${this.col(alias, ref.column)} IS NOT NULL`;
    const row = await this.one(
      `SELECT (SELECT COUNT(DISTINCT ${value('a', a)}) FROM ${from('a', a)}), ` +
        `(SELECT COUNT(DISTINCT ${value('b', b)}) FROM ${from('b', b)}), ` +
        `(SELECT COUNT(DISTINCT ${value('a', a)}) FROM ${from('a', a)} AND ${value('a', a)} IN (SELECT ${value('b', b)} FROM ${from('b', b)}))`,
    );
    const [distinctA, distinctB, intersection] = row.map(count);
    const union = distinctA + distinctB - intersection;
    return { distinctA, distinctB, intersection, union, jaccard: ratio(intersection, union) ?? 0 };
  }

  /**
   * Coverage, fan-out and agreement over one join path, with the definitions of §3.1.3 (see
   * JoinStatistics), for each comparison of a column `from` in the path's first table (Ti) with
   * a column `to` in its last (Tj). Comparisons over the same path share one pass over the join:
   * the join is the expensive part (on many-to-many paths by far), the comparisons are cheap.
   */
  async join(path: JoinStep[], comparisons: { from: ColumnRef; to: ColumnRef; textual: boolean }[]): Promise<JoinStatistics[]> {
    const last = `t${path.length}`;
    const joins = path
      .map((step, k) => {
        const on = step.leftColumns.map((c, i) => `${this.col(`t${k}`, c)} = ${this.col(`t${k + 1}`, step.rightColumns[i])}`).join(' AND ');
        return `JOIN ${this.id(step.right)} AS t${k + 1} ON ${on}`;
      })
      .join(' ');
    const joined = `${this.id(path[0].left)} AS t0 ${joins}`;
    const keys = path[0].leftColumns.map((c) => this.col('t0', c)).join(', ');
    // One pass over the join for the row counts, and (with a one-column key, the common case)
    // the distinct joined keys too. COUNT(CASE ...) rather than SUM: an integer in both engines
    // (MySQL's SUM is DECIMAL).
    const singleKey = path[0].leftColumns.length === 1;
    const agreeing = comparisons.flatMap(({ from, to, textual }) => {
      const [a, b] = [this.col('t0', from.column), this.col(last, to.column)];
      return [
        `COUNT(CASE WHEN ${this.exact(a, textual)} = ${this.exact(b, textual)} THEN 1 END)`,
        textual ? `COUNT(CASE WHEN ${this.exact(`LOWER(${a})`, true)} = ${this.exact(`LOWER(${b})`, true)} THEN 1 END)` : '0',
      ];
    });
    const parts = ['COUNT(*)', singleKey ? `COUNT(DISTINCT ${keys})` : '0', ...agreeing];
    const [joinedRows, distinctJoinedKeys, ...agreeingCounts] = (await this.one(`SELECT ${parts.join(', ')} FROM ${joined}`)).map(count);
    // Composite keys: SQLite's COUNT(DISTINCT ...) takes one argument, so count distinct tuples apart.
    const keysJoined = singleKey
      ? distinctJoinedKeys
      : count((await this.one(`SELECT COUNT(*) FROM (SELECT DISTINCT ${keys} FROM ${joined}) AS joined_keys`))[0]);
    const keysInTable = count((await this.one(`SELECT COUNT(*) FROM (SELECT DISTINCT ${keys} FROM ${this.id(path[0].left)} AS t0) AS table_keys`))[0]);
    return comparisons.map(({ from, to, textual }, i) => ({
      from,
      to,
      path,
      pathText: describePath(path),
      keysInTable,
      keysJoined,
      joinedRows,
      agreeingRows: agreeingCounts[2 * i],
      coverage: ratio(keysJoined, keysInTable),
      fanout: ratio(joinedRows, keysJoined),
      agreement: ratio(agreeingCounts[2 * i], joinedRows),
      agreementCaseInsensitive: textual ? ratio(agreeingCounts[2 * i + 1], joinedRows) : null,
    }));
  }

  private async one(sql: string): Promise<SqlValue[]> {
    return (await this.db.execute(sql, { timeoutMs: this.timeoutMs, maxRows: 1 })).rows[0];
  }

  /**
   * `expression` compared by its bytes. SQLite: COLLATE BINARY (no effect on numbers). MySQL:
   * BINARY, for text only, since a number made a binary string would compare as its digits
   * (1.00 against 1).
   */
  private exact(expression: string, textual: boolean): string {
    if (this.db.dialect === 'sqlite') return `${expression} COLLATE BINARY`;
    return textual ? `BINARY ${expression}` : expression;
  }

  private id(name: string): string {
    return quoteIdentifier(name, this.db.dialect);
  }

  private col(alias: string, column: string): string {
    return `${alias}.${this.id(column)}`;
  }
}

function ratio(numerator: number, denominator: number): number | null {
  return denominator === 0 ? null : Math.round((numerator / denominator) * 1e6) / 1e6;
}

function count(v: SqlValue): number {
  if (typeof v !== 'number') throw new Error(`expected a count, got ${JSON.stringify(v)}`);
  return v;
}
