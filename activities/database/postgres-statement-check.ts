import { refusedFunction } from './allowed-functions';
import { parsePostgres, type RawStatement } from './postgres-parser';
import { ReadOnlyViolation } from './target-database';

/**
 * The PostgreSQL statement check on the parse tree, behind the token guard (read-only-guard.ts)
 * and independent of it: the statement is parsed by PostgreSQL's own grammar (postgres-parser.ts),
 * so what is checked is what the server will run, whatever comments, control characters, quoting
 * or escapes hide from a scanner. It allows exactly one SELECT (VALUES, set operations and
 * WITH ... SELECT are SELECTs too) and then walks the whole tree:
 * - no SELECT ... INTO (it creates a table) and no FOR UPDATE/SHARE (it locks rows), at any depth;
 * - every common table expression is a query (WITH x AS (DELETE ...) writes);
 * - every function called is on the allowlist (allowed-functions.ts), unqualified or in
 *   pg_catalog: a name in another schema is a function of the database's own;
 * - no field `x.f` that PostgreSQL would read as the call f(x) of a function not allowed
 *   (`fieldFunctions`: postgres-field-functions.ts);
 * - no operator and no type qualified by a schema other than pg_catalog, for the same reason;
 * - only the kinds of node a query needs: anything else (XML, SQL/JSON syntax, ...) is refused.
 * What it cannot see: the code of the database's own views, operators, casts and domains; the
 * read-only transaction and a SELECT-only account stop what that code could write.
 */
export async function assertPostgresQuery(sql: string, fieldFunctions: ReadonlySet<string>): Promise<void> {
  // The parser reads a C string: past a NUL it would check less than the server is sent.
  if (sql.includes('\0')) reject('a NUL character', 'the parser would stop reading there');
  const statements = sql.trim() ? await parsePostgres(sql) : [];
  if (statements.length === 0) reject('empty SQL', `there is no statement to run. ${ALLOWED}`);
  if (statements.length > 1) reject(`a second statement (${statementName(statements[1])})`, `only one statement may run. ${ALLOWED}`);
  const [statement] = statements;
  if (!('SelectStmt' in statement)) reject(statementName(statement), `${STATEMENT_REASONS[nodeType(statement)] ?? 'it is not a query'}. ${ALLOWED}`);
  checkTree(statement, fieldFunctions);
}

const ALLOWED = 'Only one SELECT (or VALUES, or WITH ... SELECT) may run';

function reject(what: string, why: string): never {
  throw new ReadOnlyViolation(`rejected ${what}: ${why} (checked on PostgreSQL's parse tree)`);
}

const STATEMENT_REASONS: Record<string, string> = {
  ExplainStmt: 'decodex sends no EXPLAIN, and planning alone runs functions with constant arguments',
  TransactionStmt: 'it controls transactions',
  VariableSetStmt: 'it changes settings',
  VariableShowStmt: 'it reads settings, which a query has no need of',
  CopyStmt: 'it reads or writes files on the server, or runs a program there',
  DoStmt: 'it runs procedural code',
  DeclareCursorStmt: 'it opens a cursor that outlives the statement',
};

/** Node types a query may hold: structure, expressions, names and constants. */
const QUERY_NODES = new Set([
  'SelectStmt',
  'ResTarget',
  'RangeVar',
  'RangeSubselect',
  'RangeFunction',
  'RangeTableSample',
  'JoinExpr',
  'Alias',
  'ColumnDef',
  'WithClause',
  'CommonTableExpr',
  'CTESearchClause',
  'CTECycleClause',
  'SortBy',
  'WindowDef',
  'GroupingSet',
  'GroupingFunc',
  'ColumnRef',
  'ParamRef',
  'A_Const',
  'A_Star',
  'A_Indices',
  'A_Indirection',
  'A_ArrayExpr',
  'A_Expr',
  'BoolExpr',
  'NullTest',
  'BooleanTest',
  'SubLink',
  'CaseExpr',
  'CaseWhen',
  'CoalesceExpr',
  'MinMaxExpr',
  'RowExpr',
  'FuncCall',
  'NamedArgExpr',
  'SQLValueFunction',
  'TypeCast',
  'TypeName',
  'CollateClause',
  'List',
  'String',
  'Integer',
  'Float',
  'Boolean',
  'BitString',
]);

/** Why the node types a query could still hold are refused. */
const NODE_REASONS: [RegExp, string, string][] = [
  [
    /^Json/,
    'SQL/JSON syntax (JSON_OBJECT, JSON_TABLE, IS JSON, ...)',
    'this parser is PostgreSQL 17, and an older server reads the same words as a call of a function of that name, which this check would not have seen',
  ],
  [/^(Xml|RangeTableFunc)/, 'XML syntax (XMLPARSE, XMLTABLE, ...)', 'it parses documents on the server and no question needs it'],
];

/**
 * Functions PostgreSQL's grammar itself writes, qualified by pg_catalog, for SQL syntax:
 * `x AT TIME ZONE z` is pg_catalog.timezone, `a LIKE b ESCAPE c` calls pg_catalog.like_escape, ...
 * They are fixed, harmless functions; the user never named them.
 */
const GRAMMAR_FUNCTIONS = new Set([
  'timezone',
  'like_escape',
  'similar_to_escape',
  'pg_collation_for',
  'is_normalized',
  'normalize',
  'extract',
  'overlay',
  'position',
  'substring',
  'btrim',
  'ltrim',
  'rtrim',
]);

/**
 * What decodex's own prefix calls (named-relations.ts: a CTE over the rows of an earlier step,
 * bound as one JSON parameter). It only reads the JSON it is given.
 */
const DECODEX_FUNCTIONS = new Set(['json_to_recordset']);

const TABLESAMPLE_METHODS = new Set(['bernoulli', 'system']);

/** Every node of the tree, without recursion (a deep expression must not overflow the worker's stack). */
function checkTree(root: RawStatement, fieldFunctions: ReadonlySet<string>): void {
  const pending: unknown[] = [root];
  while (pending.length) {
    const value = pending.pop();
    if (Array.isArray(value)) {
      for (const item of value) pending.push(item);
      continue;
    }
    if (!isObject(value)) continue;
    for (const [key, child] of Object.entries(value)) {
      // Node types are capitalised (`FuncCall`), fields are not (`funcname`, `typeName`).
      if (/^[A-Z]/.test(key)) checkNode(key, isObject(child) ? child : {}, fieldFunctions);
      else if (key === 'typeName' && isObject(child)) checkTypeName(child);
      pending.push(child);
    }
  }
}

function checkNode(type: string, node: Record<string, unknown>, fieldFunctions: ReadonlySet<string>): void {
  if (type === 'SelectStmt') {
    if (node.intoClause) reject('SELECT ... INTO', 'it creates a table');
    if (node.lockingClause) reject('SELECT ... FOR UPDATE / FOR SHARE', 'it locks rows');
  }
  if (!QUERY_NODES.has(type)) {
    const known = NODE_REASONS.find(([pattern]) => pattern.test(type));
    reject(known ? known[1] : `a ${type} node`, known ? known[2] : 'it is not part of a query this check knows');
  }
  switch (type) {
    case 'CommonTableExpr': {
      const query = isObject(node.ctequery) ? node.ctequery : {};
      if (!('SelectStmt' in query)) reject(`WITH ${String(node.ctename)} AS (${statementName(query)})`, 'a common table expression may only be a query');
      return;
    }
    case 'FuncCall':
      return checkFunction(names(node.funcname));
    case 'A_Expr':
      return checkOperator(names(node.name));
    case 'SubLink':
      return checkOperator(names(node.operName));
    case 'SortBy':
      return checkOperator(names(node.useOp));
    case 'TypeName':
      return checkTypeName(node);
    // `t.f` and `t.c.f` (the first name is a table or a column, never a call), `(expr).f`.
    case 'ColumnRef':
      return checkFields(names(node.fields).slice(1), fieldFunctions);
    case 'A_Indirection':
      return checkFields(names(node.indirection), fieldFunctions);
    case 'RangeTableSample': {
      const method = names(node.method);
      if (!TABLESAMPLE_METHODS.has(unqualified(method) ?? '')) reject(`TABLESAMPLE ${method.join('.')}`, 'only BERNOULLI and SYSTEM sample a table');
      return;
    }
  }
}

function checkFunction(name: string[]): void {
  const written = name.join('.');
  const bare = unqualified(name);
  if (bare === undefined) reject(`a call of ${written}()`, 'a function in a schema other than pg_catalog is one of the database itself');
  // Built-in functions are all lower case; "Count"() can only be a function of the database itself.
  if (bare !== bare.toLowerCase()) reject(`a call of "${bare}"()`, 'a quoted name with capitals is no built-in function');
  // Qualified, so no function of the database's can stand in for them.
  if (name.length === 2 && GRAMMAR_FUNCTIONS.has(bare)) return;
  if (DECODEX_FUNCTIONS.has(bare)) return;
  const refused = refusedFunction(bare, 'postgres');
  if (refused) reject(`a call of ${written}()`, refused);
}

function checkFields(fields: string[], fieldFunctions: ReadonlySet<string>): void {
  for (const field of fields) {
    const refused = fieldFunctions.has(field) ? refusedFunction(field, 'postgres') : null;
    if (refused) reject(`the field .${field}`, `no column is called ${field}, so PostgreSQL would read x.${field} as the call ${field}(x); ${refused}`);
  }
}

function checkOperator(name: string[]): void {
  if (name.length > 1 && unqualified(name) === undefined) {
    reject(`OPERATOR(${name.join('.')})`, 'an operator in a schema other than pg_catalog is one of the database itself, and runs its function');
  }
}

function checkTypeName(typeName: Record<string, unknown>): void {
  const name = names(typeName.names);
  if (name.length > 1 && unqualified(name) === undefined) {
    reject(`the type ${name.join('.')}`, "a type in a schema other than pg_catalog is one of the database itself, and a cast to it runs the database's code");
  }
}

/** The last name when the rest is nothing or pg_catalog; undefined for any other qualification. */
function unqualified(name: string[]): string | undefined {
  if (name.length === 1) return name[0];
  if (name.length === 2 && name[0] === 'pg_catalog') return name[1];
  return undefined;
}

/** A name list (`[{ String: { sval } }, ...]`) as its parts; `*` and subscripts (A_Star, A_Indices) as ''. */
function names(list: unknown): string[] {
  if (!Array.isArray(list)) return [];
  return list.map((n) => String((isObject(n) && isObject(n.String) ? n.String.sval : undefined) ?? ''));
}

function nodeType(node: RawStatement): string {
  return Object.keys(node)[0] ?? 'empty';
}

/** `DeleteStmt` as `DELETE`, `CreateTableAsStmt` as `CREATE TABLE AS`, for messages. */
function statementName(node: RawStatement): string {
  return nodeType(node)
    .replace(/Stmt$/, '')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toUpperCase();
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
