/**
 * The one contract every SQL parser sits behind. Parsers are swappable: which one runs
 * (CHOSEN_SQL_ANALYZER) is chosen by measured parse rate over the benchmark gold SQL
 * (`bench/sql-parse.ts`), not by preference, so callers must depend only on this file.
 */

export type SqlDialect = 'sqlite' | 'mysql' | 'postgres';

/** Table -> column names of the target database; lets unqualified and double-quoted names be decided. */
export interface SchemaHint {
  tables: { name: string; columns: string[] }[];
}

/** A real column of a real table. `table` is null when the SQL alone cannot tell which table. */
export interface ColumnReference {
  table: string | null;
  /** `*` for a star projection (`SELECT *`, `T1.*`), so "all columns of T" is not lost. */
  column: string;
}

export type SqlLiteral = string | number;

export interface SqlAnalysisSuccess {
  ok: true;
  /**
   * Real tables read anywhere in the query (CTE names excluded), in first-seen order, deduplicated
   * case-insensitively; spelled as in the schema hint when it has them, else as written.
   */
  tables: string[];
  /**
   * Real columns referenced anywhere (select list, joins, filters, grouping, ordering, subqueries,
   * CTEs, set-operation branches), aliases resolved, deduplicated case-insensitively.
   * An unqualified column gets its table from the schema hint when exactly one table in scope
   * has it, and without a hint only when its SELECT reads a single source; else `table` is null.
   * Select-list aliases (`ORDER BY cnt`) and computed outputs of derived tables are not columns.
   */
  columns: ColumnReference[];
  /**
   * String and numeric literals, repeats kept (`-3` is the number -3), in source order within
   * each SELECT, except that a FROM subquery's come before those of the SELECT reading it and a
   * parser may normalise a clause (polyglot reads `LIMIT 9, 2` as `LIMIT 2 OFFSET 9`).
   * In SQLite, a double-quoted name is a string when the schema hint shows no such column, and
   * always without a hint (gold SQL uses double quotes for strings far more than for names).
   */
  literals: SqlLiteral[];
}

export interface SqlSyntaxError {
  message: string;
  /** 1-based line and column of where the parser gave up. */
  line?: number;
  column?: number;
  /** 0-based index into the SQL string as JavaScript indexes it (UTF-16 code units). */
  offset?: number;
}

export interface SqlAnalysisFailure {
  ok: false;
  error: SqlSyntaxError;
}

export type SqlAnalysis = SqlAnalysisSuccess | SqlAnalysisFailure;

export interface SqlAnalyzer {
  /** Short identifier of the parser library, used in benchmark output. */
  readonly name: string;
  /** Never throws for bad SQL: a query the parser rejects is `{ ok: false }`. */
  analyze(sql: string, dialect: SqlDialect, schema?: SchemaHint): SqlAnalysis;
}
