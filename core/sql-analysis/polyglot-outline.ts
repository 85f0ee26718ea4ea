import type { ColumnRefOutline, CteOutline, OutputOutline, QueryOutline, RefOutline, SelectOutline, SourceOutline } from './query-model';
import type { SqlDialect } from './sql-analyzer';

/**
 * Translates a polyglot AST (serde JSON: every node is `{ kind: payload }`) into the neutral
 * outline. Only the node kinds that carry names or values are interpreted; everything else is
 * walked generically, so functions, operators and clauses polyglot adds later still yield their
 * columns and literals.
 */

// The AST is plain JSON from WASM; its published TypeScript types lag the runtime shape.
type Node = { [key: string]: any };

const QUERY_KINDS = new Set(['select', 'union', 'intersect', 'except', 'subquery']);
const TEXT_LITERALS = new Set(['string', 'national_string', 'escape_string', 'dollar_string', 'date', 'time', 'timestamp', 'datetime']);
/** Select fields handled structurally rather than walked as expressions. */
const STRUCTURAL_SELECT_FIELDS = new Set(['expressions', 'from', 'joins', 'with']);
const STRUCTURAL_COMPOUND_FIELDS = new Set(['left', 'right', 'with']);

export class PolyglotOutliner {
  /** Code points of the parsed SQL: polyglot spans index code points, not UTF-16 units. */
  private readonly chars: string[];

  constructor(
    sql: string,
    private readonly dialect: SqlDialect,
  ) {
    this.chars = Array.from(sql);
  }

  /** The outline of a query statement, or null when the statement is not a query (INSERT, DDL, ...). */
  query(node: Node): QueryOutline | null {
    const [kind, body] = single(node) ?? NOT_A_NODE;
    if (kind === 'select') return this.select(body);
    if (kind === 'subquery') return this.query(body.this);
    if (kind === 'union' || kind === 'intersect' || kind === 'except') {
      const branches = [this.query(body.left), this.query(body.right)];
      if (branches.some((b) => b === null)) return null;
      const refs: RefOutline[] = [];
      for (const [field, value] of Object.entries(body)) if (!STRUCTURAL_COMPOUND_FIELDS.has(field)) this.walk(value, refs);
      return { kind: 'compound', ctes: this.ctes(body.with), branches: branches as QueryOutline[], refs };
    }
    return null;
  }

  private select(body: Node): SelectOutline {
    const refs: RefOutline[] = [];
    const outputs = (body.expressions ?? []).map((item: Node) => this.output(item, refs));
    const sources: SourceOutline[] = [];
    for (const item of body.from?.expressions ?? []) sources.push(...this.source(item, refs));
    for (const join of body.joins ?? []) {
      const joined = this.source(join.this, refs);
      sources.push(...joined);
      this.walk(join.on, refs);
      // USING (c) names a column of the joined source (and of the left side, under the same name).
      const qualifier = joined.length === 1 && joined[0].kind === 'table' ? (joined[0].alias ?? joined[0].name) : null;
      for (const id of join.using ?? []) refs.push({ kind: 'column', table: qualifier, name: id.name, doubleQuoted: false });
    }
    for (const [field, value] of Object.entries(body)) if (!STRUCTURAL_SELECT_FIELDS.has(field)) this.walk(value, refs);
    return { kind: 'select', ctes: this.ctes(body.with), sources, outputs, refs };
  }

  private ctes(withClause: Node | null | undefined): CteOutline[] {
    const out: CteOutline[] = [];
    for (const cte of withClause?.ctes ?? []) {
      const query = this.query(cte.this);
      if (query) out.push({ name: cte.alias.name, columns: (cte.columns ?? []).map((c: Node) => c.name), query });
    }
    return out;
  }

  private output(item: Node, refs: RefOutline[]): OutputOutline {
    const [kind, body] = single(item) ?? NOT_A_NODE;
    if (kind === 'alias') {
      this.walk(body.this, refs);
      const inner = single(body.this);
      const column = inner?.[0] === 'column' ? this.columnRef(inner[1]) : null;
      return { name: body.alias.name, aliased: true, column, star: null };
    }
    if (kind === 'column') {
      const column = this.columnRef(body);
      refs.push(column);
      return { name: column.name, aliased: false, column, star: null };
    }
    if (kind === 'star') {
      const table = body.table?.name ?? null;
      refs.push({ kind: 'star', table });
      return { name: null, aliased: false, column: null, star: { table } };
    }
    this.walk(item, refs);
    return { name: null, aliased: false, column: null, star: null };
  }

  /** FROM / JOIN item; anything other than a table or subquery is walked for its expressions. */
  private source(item: Node, refs: RefOutline[]): SourceOutline[] {
    const [kind, body] = single(item) ?? NOT_A_NODE;
    if (kind === 'table') return [{ kind: 'table', name: body.name.name, alias: body.alias?.name ?? null }];
    if (kind === 'subquery') {
      const query = this.query(body.this);
      if (query) return [{ kind: 'derived', alias: body.alias?.name ?? null, query }];
    }
    this.walk(item, refs);
    return [];
  }

  private walk(value: unknown, refs: RefOutline[]): void {
    if (Array.isArray(value)) {
      for (const v of value) this.walk(v, refs);
      return;
    }
    if (value === null || typeof value !== 'object') return;
    const entry = single(value as Node);
    if (entry) {
      const [kind, body] = entry;
      if (kind === 'column') return void refs.push(this.columnRef(body));
      if (kind === 'star') return void refs.push({ kind: 'star', table: body.table?.name ?? null });
      if (kind === 'literal') return void pushLiteral(body, 1, refs);
      if (kind === 'neg' && single(body.this)?.[0] === 'literal') return void pushLiteral(body.this.literal, -1, refs);
      if (QUERY_KINDS.has(kind)) {
        const query = this.query(value as Node);
        if (query) return void refs.push({ kind: 'subquery', query });
      }
    }
    for (const v of Object.values(value)) this.walk(v, refs);
  }

  private columnRef(body: Node): ColumnRefOutline {
    const table: string | null = body.table?.name ?? null;
    const start: number | undefined = body.name.span?.start;
    // polyglot marks backtick, bracket and double-quote identifiers alike as `quoted`; only the
    // source character tells a SQLite double-quoted token (possibly a string) apart.
    const doubleQuoted = this.dialect === 'sqlite' && table === null && body.name.quoted === true && start !== undefined && this.chars[start] === '"';
    return { kind: 'column', table, name: body.name.name, doubleQuoted };
  }
}

function pushLiteral(literal: Node, sign: 1 | -1, refs: RefOutline[]): void {
  if (literal.literal_type === 'number') {
    const n = Number(literal.value);
    if (Number.isFinite(n)) refs.push({ kind: 'literal', value: sign * n });
  } else if (TEXT_LITERALS.has(literal.literal_type)) {
    refs.push({ kind: 'literal', value: literal.value });
  }
}

const NOT_A_NODE: [string, Node] = ['', {}];

/** `[kind, payload]` of a `{ kind: payload }` node, or null for any other object. */
function single(node: Node | null | undefined): [string, Node] | null {
  if (!node || typeof node !== 'object' || Array.isArray(node)) return null;
  const keys = Object.keys(node);
  if (keys.length !== 1) return null;
  const body = node[keys[0]];
  return body !== null && typeof body === 'object' && !Array.isArray(body) ? [keys[0], body] : null;
}
