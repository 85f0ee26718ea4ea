import { describePath, type JoinStep } from '../../core/exploration/join-paths';
import type { JoinStatistics, ValueOverlap } from '../../core/exploration/pair-types';
import type { ColumnRef } from '../../core/preparation/column-ref';
import type { SqlValue } from '../../core/sql-value';
import { quoteIdentifier } from '../database/sql-identifiers';
import type { TargetDatabase } from '../database/target-database';
import type { Dialect } from '../../core/database/schema-types';

/** A 64-bit integer type in each engine's CAST. */
const INTEGER_TYPE: Record<Dialect, string> = { sqlite: 'INTEGER', mysql: 'SIGNED', postgres: 'BIGINT' };

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
   * a column `to` in its last (Tj), in one statement.
   *
   * The join is never materialised: on a many-to-many path (two tables that both reference a hub,
   * formula_1's standings and results through `constructors`) it has millions of rows, and
   * walking them took seconds per pair. Both ends are counted apart instead, grouped by the keys
   * of the path's first step: Ti by its key (and the compared value), the rest of the path
   * (T1 ⋈ … ⋈ Tj) by the columns that key joins (and the value in Tj). A Ti row joins exactly
   * the rows of the rest whose key matches, so the joined rows are Σ nTi × nRest over matching
   * keys, and the agreeing ones the same sum over matching keys and equal values. Exact as
   * the join is: groups are formed byte for byte (each key keeps its own collation for the
   * match, as the join's `=` does), NULLs match nothing, values compare as `exact` says.
   */
  async join(path: JoinStep[], comparisons: { from: ColumnRef; to: ColumnRef; textual: boolean }[]): Promise<JoinStatistics[]> {
    const last = `t${path.length}`;
    const rest = path
      .map((step, k) => {
        if (k === 0) return `${this.id(step.right)} AS t1`;
        const on = step.leftColumns.map((c, i) => `${this.col(`t${k}`, c)} = ${this.col(`t${k + 1}`, step.rightColumns[i])}`).join(' AND ');
        return `JOIN ${this.id(step.right)} AS t${k + 1} ON ${on}`;
      })
      .join(' ');
    const tableKeys = path[0].leftColumns.map((c) => this.col('t0', c));
    const restKeys = path[0].rightColumns.map((c) => this.col('t1', c));
    // One side grouped by its keys (and a value): `k0, k1, ... [, v], n`.
    const side = (keys: string[], from: string, value?: string) => {
      const columns = [...keys.map((k, i) => `${k} AS k${i}`), ...(value ? [`${value} AS v`] : []), 'COUNT(*) AS n'];
      const groups = [...keys.map((k) => this.groupExact(k)), ...(value ? [value] : [])];
      return `(SELECT ${columns.join(', ')} FROM ${from} GROUP BY ${groups.join(', ')})`;
    };
    const matching = (value: boolean) => [...tableKeys.map((_, i) => `a.k${i} = b.k${i}`), ...(value ? ['a.v = b.v'] : [])].join(' AND ');
    const t0 = `${this.id(path[0].left)} AS t0`;
    const pairsOf = (a: string, b: string, value: boolean) => `${a} AS a JOIN ${b} AS b ON ${matching(value)}`;
    const keyPairs = pairsOf(side(tableKeys, t0), side(restKeys, rest), false);
    const parts = [
      this.sumOf('a.n * b.n', keyPairs),
      `(SELECT COUNT(*) FROM (SELECT DISTINCT ${tableKeys.map((_, i) => `a.k${i}`).join(', ')} FROM ${keyPairs}) AS joined_keys)`,
      // A NULL key joins nothing, so it is no key value of Ti (coverage would count it as one never joined).
      `(SELECT COUNT(*) FROM (SELECT DISTINCT ${tableKeys.join(', ')} FROM ${t0} WHERE ${tableKeys.map((k) => `${k} IS NOT NULL`).join(' AND ')}) AS table_keys)`,
    ];
    for (const { from, to, textual } of comparisons) {
      for (const lowerCase of textual ? [false, true] : [false]) {
        const value = (alias: string, column: string) => this.exact(lowerCase ? `LOWER(${this.col(alias, column)})` : this.col(alias, column), textual);
        parts.push(this.sumOf('a.n * b.n', pairsOf(side(tableKeys, t0, value('t0', from.column)), side(restKeys, rest, value(last, to.column)), true)));
      }
    }
    const [joinedRows, keysJoined, keysInTable, ...agreeing] = (await this.one(`SELECT ${parts.join(', ')}`)).map(count);
    let next = 0;
    return comparisons.map(({ from, to, textual }) => {
      const agreeingRows = agreeing[next++];
      const agreeingIgnoringCase = textual ? agreeing[next++] : null;
      return {
        from,
        to,
        path,
        pathText: describePath(path),
        keysInTable,
        keysJoined,
        joinedRows,
        agreeingRows,
        coverage: ratio(keysJoined, keysInTable),
        fanout: ratio(joinedRows, keysJoined),
        agreement: ratio(agreeingRows, joinedRows),
        agreementCaseInsensitive: agreeingIgnoringCase === null ? null : ratio(agreeingIgnoringCase, joinedRows),
      };
    });
  }

  /** `SUM(terms)` over `from` as a subquery: 0 when nothing matches, and an integer in every engine (MySQL's SUM is DECIMAL, PostgreSQL's of bigints numeric). */
  private sumOf(terms: string, from: string): string {
    return `(SELECT CAST(COALESCE(SUM(${terms}), 0) AS ${INTEGER_TYPE[this.db.dialect]}) FROM ${from})`;
  }

  /**
   * A key as a group: byte for byte in SQLite, whose GROUP BY otherwise follows the column's
   * collation and would fold 'A' and 'a' of a NOCASE key into one group that then matches only
   * one of them. The key itself is selected as the column, so the match keeps the column's
   * collation, as the join's `=` does. MySQL groups by the column's collation, which is also
   * how its `=` matches, so each group matches exactly the rows the join would.
   */
  private groupExact(key: string): string {
    return this.db.dialect === 'sqlite' ? `${key} COLLATE BINARY` : key;
  }

  private async one(sql: string): Promise<SqlValue[]> {
    return (await this.db.execute(sql, { timeoutMs: this.timeoutMs, maxRows: 1 })).rows[0];
  }

  /**
   * `expression` compared by its bytes. SQLite: COLLATE BINARY (no effect on numbers). MySQL:
   * BINARY, for text only, since a number made a binary string would compare as its digits
   * (1.00 against 1). PostgreSQL: text as it is (its default collations are deterministic:
   * equal means the same bytes); anything else as its text, because PostgreSQL compares no text
   * with a number and a pair may join an integer key with a text column holding the same numbers,
   * which SQLite and MySQL compare by converting.
   */
  private exact(expression: string, textual: boolean): string {
    if (this.db.dialect === 'sqlite') return `${expression} COLLATE BINARY`;
    if (this.db.dialect === 'postgres') return textual ? expression : `CAST(${expression} AS text)`;
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
