import type { ColumnRefOutline, CteOutline, QueryOutline, RefOutline, SelectOutline, SourceOutline } from './query-model';
import { SchemaIndex } from './schema-index';
import type { ColumnReference, SchemaHint, SqlAnalysisSuccess, SqlLiteral } from './sql-analyzer';

/**
 * Turns a parser-neutral outline into tables, columns and literals, following SQLite's name
 * resolution closely enough for gold benchmark SQL: aliases bind per SELECT, CTEs are visible to
 * later CTEs and nested queries, subqueries see enclosing scopes (correlation), derived tables
 * and CTEs expose their select list, and a select-list alias is only a name, not a column.
 */
export function resolveQuery(outline: QueryOutline, schema?: SchemaHint): SqlAnalysisSuccess {
  const resolver = new Resolver(new SchemaIndex(schema));
  resolver.query(outline, null, new Map());
  return { ok: true, tables: resolver.tables, columns: resolver.columns, literals: resolver.literals };
}

/** What a derived table or CTE offers to the query that reads it. */
interface Shape {
  outputs: { name: string | null; refs: ColumnReference[] }[];
  /** Tables expanded by `*` whose columns the schema hint does not list: any name may come from them. */
  openTables: string[];
}

type BoundSource = { kind: 'table'; key: string; table: string } | { kind: 'derived'; key: string | null; shape: Shape };

interface Scope {
  parent: Scope | null;
  sources: BoundSource[];
  /** Lowercased explicit select-list aliases of this SELECT. */
  aliases: Set<string>;
}

interface CteBinding {
  cte: CteOutline;
  env: CteEnv;
  shape: Shape | 'resolving' | null;
}
type CteEnv = Map<string, CteBinding>;

/** Whether a source has a column: known yes/no from the schema or select list, or unknown. */
type Membership = 'yes' | 'no' | 'unknown';

/** How one column reference resolved. */
type Resolution = { kind: 'columns'; refs: ColumnReference[] } | { kind: 'alias' } | { kind: 'literal'; value: string };

const EMPTY_SHAPE: Shape = { outputs: [], openTables: [] };

class Resolver {
  readonly tables: string[] = [];
  readonly columns: ColumnReference[] = [];
  readonly literals: SqlLiteral[] = [];
  private readonly seenTables = new Set<string>();
  private readonly seenColumns = new Set<string>();

  constructor(private readonly schema: SchemaIndex) {}

  query(q: QueryOutline, parent: Scope | null, outerEnv: CteEnv): Shape {
    const env = this.bindCtes(q.ctes, outerEnv, parent);
    if (q.kind === 'select') return this.select(q, parent, env);
    const shapes = q.branches.map((b) => this.query(b, parent, env));
    const shape = mergeBranchShapes(shapes);
    // A compound's own ORDER BY names its output columns, as if reading it as a derived table.
    const scope: Scope = { parent, sources: [{ kind: 'derived', key: null, shape }], aliases: new Set() };
    this.refs(q.refs, scope, env);
    return shape;
  }

  private bindCtes(ctes: CteOutline[], outerEnv: CteEnv, parent: Scope | null): CteEnv {
    if (ctes.length === 0) return outerEnv;
    const env: CteEnv = new Map(outerEnv);
    for (const cte of ctes) {
      // Bound before its body is resolved so a recursive CTE finds itself; `env` is shared, so
      // each CTE also sees the ones declared after it, which SQLite would reject but is harmless here.
      const binding: CteBinding = { cte, env, shape: null };
      env.set(cte.name.toLowerCase(), binding);
    }
    for (const cte of ctes) this.cteShape(env.get(cte.name.toLowerCase())!, parent);
    return env;
  }

  private cteShape(binding: CteBinding, parent: Scope | null): Shape {
    if (binding.shape === 'resolving') return EMPTY_SHAPE; // recursive reference to itself
    if (binding.shape) return binding.shape;
    binding.shape = 'resolving';
    const shape = renameOutputs(this.query(binding.cte.query, parent, binding.env), binding.cte.columns);
    binding.shape = shape;
    return shape;
  }

  private select(q: SelectOutline, parent: Scope | null, env: CteEnv): Shape {
    const scope: Scope = {
      parent,
      sources: q.sources.map((s) => this.bindSource(s, parent, env)),
      aliases: new Set(q.outputs.filter((o) => o.aliased && o.name).map((o) => o.name!.toLowerCase())),
    };
    this.refs(q.refs, scope, env);
    const shape: Shape = { outputs: [], openTables: [] };
    for (const out of q.outputs) {
      if (out.star) {
        for (const source of this.starSources(out.star.table, scope)) appendExpansion(shape, this.expand(source));
      } else {
        const r = out.column ? this.resolveColumn(out.column, scope) : null;
        shape.outputs.push({ name: out.name, refs: r?.kind === 'columns' ? r.refs : [] });
      }
    }
    return shape;
  }

  private bindSource(s: SourceOutline, parent: Scope | null, env: CteEnv): BoundSource {
    if (s.kind === 'derived') {
      // SQLite derived tables cannot see sibling FROM items, only enclosing scopes.
      return { kind: 'derived', key: s.alias?.toLowerCase() ?? null, shape: this.query(s.query, parent, env) };
    }
    const key = (s.alias ?? s.name).toLowerCase();
    const cte = env.get(s.name.toLowerCase());
    if (cte) return { kind: 'derived', key, shape: this.cteShape(cte, parent) };
    const table = this.schema.tableName(s.name);
    this.addTable(table);
    return { kind: 'table', key, table };
  }

  private refs(refs: RefOutline[], scope: Scope, env: CteEnv): void {
    for (const ref of refs) {
      if (ref.kind === 'literal') this.literals.push(ref.value);
      else if (ref.kind === 'subquery') this.query(ref.query, scope, env);
      else if (ref.kind === 'star') {
        for (const source of this.starSources(ref.table, scope)) {
          // A derived table's own columns were already recorded when its body was resolved.
          if (source.kind === 'table') this.addColumn({ table: source.table, column: '*' });
        }
        if (ref.table !== null && !findSource(ref.table, scope)) {
          this.addColumn({ table: this.schema.tableName(ref.table), column: '*' });
        }
      } else {
        const r = this.resolveColumn(ref, scope);
        if (r.kind === 'columns') r.refs.forEach((c) => this.addColumn(c));
        else if (r.kind === 'literal') this.literals.push(r.value);
      }
    }
  }

  private starSources(qualifier: string | null, scope: Scope): BoundSource[] {
    if (qualifier === null) return scope.sources;
    const found = findSource(qualifier, scope);
    return found ? [found] : [];
  }

  private expand(source: BoundSource): Shape {
    if (source.kind === 'derived') return source.shape;
    const columns = this.schema.columnsOf(source.table);
    if (!columns) return { outputs: [], openTables: [source.table] };
    return { outputs: [...columns.values()].map((c) => ({ name: c, refs: [{ table: source.table, column: c }] })), openTables: [] };
  }

  private resolveColumn(ref: ColumnRefOutline, scope: Scope): Resolution {
    if (ref.table !== null) {
      const source = findSource(ref.table, scope);
      // A qualifier that names nothing in scope is kept as written: the database will reject it.
      if (!source) return this.columnsOf({ kind: 'table', key: ref.table.toLowerCase(), table: this.schema.tableName(ref.table) }, ref.name);
      return this.columnsOf(source, ref.name);
    }
    for (let s: Scope | null = scope; s; s = s.parent) {
      const known = s.sources.filter((src) => this.membership(src, ref.name) === 'yes');
      const unknown = ref.doubleQuoted ? [] : s.sources.filter((src) => this.membership(src, ref.name) === 'unknown');
      if (s === scope && known.length === 0 && scope.aliases.has(ref.name.toLowerCase())) return { kind: 'alias' };
      if (known.length + unknown.length === 0) continue;
      if (known.length + unknown.length === 1) return this.columnsOf([...known, ...unknown][0], ref.name);
      return { kind: 'columns', refs: [{ table: null, column: ref.name }] }; // ambiguous without more schema
    }
    // SQLite reads a double-quoted name that matches no column as a string.
    if (ref.doubleQuoted) return { kind: 'literal', value: ref.name };
    return { kind: 'columns', refs: [{ table: null, column: ref.name }] };
  }

  private membership(source: BoundSource, column: string): Membership {
    if (source.kind === 'table') {
      const columns = this.schema.columnsOf(source.table);
      if (!columns) return 'unknown';
      return columns.has(column.toLowerCase()) ? 'yes' : 'no';
    }
    if (findOutputs(source.shape, column).length > 0) return 'yes';
    return source.shape.openTables.length > 0 ? 'unknown' : 'no';
  }

  private columnsOf(source: BoundSource, column: string): Resolution {
    if (source.kind === 'table') {
      const spelled = this.schema.columnsOf(source.table)?.get(column.toLowerCase()) ?? column;
      return { kind: 'columns', refs: [{ table: source.table, column: spelled }] };
    }
    const outputs = findOutputs(source.shape, column);
    // An output with no refs is computed (COUNT(*) AS n): a name, not a real column.
    if (outputs.length > 0) return { kind: 'columns', refs: outputs.flatMap((o) => o.refs) };
    const open = source.shape.openTables;
    if (open.length === 1) return this.columnsOf({ kind: 'table', key: open[0].toLowerCase(), table: open[0] }, column);
    return { kind: 'columns', refs: [{ table: null, column }] };
  }

  private addTable(name: string): void {
    const key = name.toLowerCase();
    if (this.seenTables.has(key)) return;
    this.seenTables.add(key);
    this.tables.push(name);
  }

  private addColumn(c: ColumnReference): void {
    const key = `${(c.table ?? '').toLowerCase()}\u0000${c.column.toLowerCase()}`;
    if (this.seenColumns.has(key)) return;
    this.seenColumns.add(key);
    this.columns.push(c);
  }
}

/** The source a qualifier names, searching outward so correlated subqueries reach outer aliases. */
function findSource(qualifier: string, scope: Scope): BoundSource | null {
  const key = qualifier.toLowerCase();
  for (let s: Scope | null = scope; s; s = s.parent) {
    const found = s.sources.find((src) => src.key === key);
    if (found) return found;
  }
  return null;
}

function findOutputs(shape: Shape, column: string): Shape['outputs'] {
  const key = column.toLowerCase();
  return shape.outputs.filter((o) => o.name?.toLowerCase() === key);
}

function appendExpansion(into: Shape, from: Shape): void {
  into.outputs.push(...from.outputs);
  into.openTables.push(...from.openTables);
}

/** `WITH c(x, y)`: the listed names replace the body's output names position by position. */
function renameOutputs(shape: Shape, names: string[]): Shape {
  if (names.length === 0) return shape;
  return { ...shape, outputs: shape.outputs.map((o, i) => ({ ...o, name: names[i] ?? o.name })) };
}

/**
 * Set-operation outputs are named by the first branch and fed by every branch at the same
 * position; when a `*` of unknown width makes positions unreliable, every branch's names are kept.
 */
function mergeBranchShapes(shapes: Shape[]): Shape {
  const [first, ...rest] = shapes;
  const positional = shapes.every((s) => s.openTables.length === 0 && s.outputs.length === first.outputs.length);
  if (!positional) {
    return { outputs: shapes.flatMap((s) => s.outputs), openTables: shapes.flatMap((s) => s.openTables) };
  }
  return {
    outputs: first.outputs.map((o, i) => ({ name: o.name, refs: [...o.refs, ...rest.flatMap((s) => s.outputs[i].refs)] })),
    openTables: [],
  };
}
