import type { ColumnRefOutline, CteOutline, OutputOutline, QueryOutline, RefOutline, SelectOutline, SourceOutline, StarRefOutline } from './query-model';
import type { SqlDialect } from './sql-analyzer';

/**
 * Translates a node-sql-parser AST (nodes tagged by `type`, subqueries wrapped as `{ ast }`,
 * set operations chained through `_next`) into the neutral outline. Expressions are walked
 * generically; only names, values and nested queries are interpreted.
 */

// node-sql-parser's published types do not cover every node its grammars emit.
type Node = { [key: string]: any };

/** Select fields handled structurally rather than walked as expressions. */
const STRUCTURAL_FIELDS = new Set(['type', 'with', 'columns', 'from', '_next', 'set_op']);
const TEXT_LITERALS = new Set(['single_quote_string', 'string', 'natural_string', 'date', 'time', 'timestamp', 'datetime']);

export class NodeSqlParserOutliner {
  constructor(private readonly dialect: SqlDialect) {}

  /** The outline of a query statement, or null when the statement is not a query. */
  query(node: Node): QueryOutline | null {
    if (node?.ast) return this.query(node.ast);
    if (node?.type !== 'select') return null;
    const chain: Node[] = [];
    for (let n: Node | null = node; n; n = n._next ?? null) chain.push(n);
    if (chain.length === 1) return this.select(node, this.ctes(node.with));
    // WITH binds to the whole compound, although the parser hangs it on the first branch.
    return { kind: 'compound', ctes: this.ctes(node.with), branches: chain.map((n) => this.select(n, [])), refs: [] };
  }

  private select(node: Node, ctes: CteOutline[]): SelectOutline {
    const refs: RefOutline[] = [];
    const columns = Array.isArray(node.columns) ? node.columns : [{ expr: { type: 'column_ref', table: null, column: '*' } }];
    const outputs = columns.map((item: Node) => this.output(item, refs));
    const sources = (node.from ?? []).flatMap((item: Node) => this.source(item, refs));
    for (const [field, value] of Object.entries(node)) if (!STRUCTURAL_FIELDS.has(field)) this.walk(value, refs);
    return { kind: 'select', ctes, sources, outputs, refs };
  }

  private ctes(withClause: Node[] | null | undefined): CteOutline[] {
    const out: CteOutline[] = [];
    for (const cte of withClause ?? []) {
      const query = this.query(cte.stmt);
      const columns = (cte.columns ?? []).map((c: Node) => columnName(c.column));
      if (query) out.push({ name: identifierText(cte.name), columns, query });
    }
    return out;
  }

  private output(item: Node, refs: RefOutline[]): OutputOutline {
    const expr = item.expr;
    const alias = item.as ? identifierText(item.as) : null;
    if (expr?.type === 'column_ref') {
      const leaf = this.columnRef(expr);
      refs.push(leaf);
      if (leaf.kind === 'star') return { name: null, aliased: false, column: null, star: { table: leaf.table } };
      return { name: alias ?? leaf.name, aliased: alias !== null, column: leaf, star: null };
    }
    this.walk(expr, refs);
    return { name: alias, aliased: alias !== null, column: null, star: null };
  }

  /** FROM item: a table, a parenthesised query, or anything else (walked); JOIN items carry ON / USING. */
  private source(item: Node, refs: RefOutline[]): SourceOutline[] {
    const alias = item.as ? identifierText(item.as) : null;
    let sources: SourceOutline[] = [];
    if (item.expr?.ast) {
      const query = this.query(item.expr.ast);
      if (query) sources = [{ kind: 'derived', alias, query }];
    } else if (typeof item.table === 'string') {
      sources = [{ kind: 'table', name: item.table, alias }];
    } else {
      this.walk(item.expr, refs);
    }
    this.walk(item.on, refs);
    const qualifier = sources.length === 1 && sources[0].kind === 'table' ? (alias ?? item.table) : null;
    for (const id of item.using ?? []) refs.push({ kind: 'column', table: qualifier, name: columnName(id), doubleQuoted: false });
    return sources;
  }

  private walk(value: unknown, refs: RefOutline[]): void {
    if (Array.isArray(value)) {
      for (const v of value) this.walk(v, refs);
      return;
    }
    if (value === null || typeof value !== 'object') return;
    const node = value as Node;
    if (node.ast) {
      const query = this.query(node.ast);
      if (query) return void refs.push({ kind: 'subquery', query });
    }
    switch (node.type) {
      case 'select': {
        const query = this.query(node);
        if (query) return void refs.push({ kind: 'subquery', query });
        break;
      }
      case 'column_ref':
        return void refs.push(this.columnRef(node));
      case 'double_quote_string':
        // SQLite: an identifier if such a column exists, else a string; MySQL: always a string.
        if (this.dialect === 'sqlite') return void refs.push({ kind: 'column', table: null, name: unescape(node.value, '"'), doubleQuoted: true });
        return void refs.push({ kind: 'literal', value: unescape(node.value, '"') });
      case 'number': {
        const n = Number(node.value);
        if (Number.isFinite(n)) refs.push({ kind: 'literal', value: n });
        return;
      }
      case 'unary_expr':
        if (node.operator === '-' && node.expr?.type === 'number') {
          const n = Number(node.expr.value);
          if (Number.isFinite(n)) return void refs.push({ kind: 'literal', value: -n });
        }
        break;
      default:
        if (TEXT_LITERALS.has(node.type) && typeof node.value === 'string') {
          return void refs.push({ kind: 'literal', value: unescape(node.value, "'") });
        }
    }
    for (const v of Object.values(node)) this.walk(v, refs);
  }

  /** `column_ref` also stands for `*` and `T.*`. */
  private columnRef(node: Node): ColumnRefOutline | StarRefOutline {
    const table = node.table ? identifierText(node.table) : null;
    const name = columnName(node.column);
    if (name === '*') return { kind: 'star', table };
    return { kind: 'column', table, name, doubleQuoted: false };
  }
}

/** Columns are plain strings or `{ expr: { value } }` depending on grammar and quoting. */
function columnName(column: unknown): string {
  if (typeof column === 'string') return column;
  const c = column as Node;
  return String(c?.expr?.value ?? c?.value ?? '');
}

function identifierText(id: unknown): string {
  if (typeof id === 'string') return id;
  const n = id as Node;
  return String(n?.value ?? n?.expr?.value ?? '');
}

/** The grammar keeps doubled quotes inside strings as written. */
function unescape(value: string, quote: string): string {
  return value.split(quote + quote).join(quote);
}
