import { isSqliteKeyword } from '../sql-analysis/sqlite-keywords';

interface Token {
  text: string;
  kind: 'string' | 'quoted' | 'word' | 'other' | 'space';
}

const TOKEN = /('(?:[^']|'')*')|("(?:[^"]|"")*"|`[^`]*`|\[[^\]]*\])|([A-Za-z_][\w$]*)|(\s+)|(.)/gs;

function tokens(sql: string): Token[] {
  return [...sql.matchAll(TOKEN)].map(([text, string, quoted, word, space]) => ({
    text,
    kind: string ? 'string' : quoted ? 'quoted' : word ? 'word' : space ? 'space' : 'other',
  }));
}

const nameOf = (t: Token) => (t.kind === 'quoted' ? t.text.slice(1, -1) : t.text).toLowerCase();

/**
 * A query with its database's names and values replaced by placeholders: tables by `<table1>`,
 * `<table2>`, … (the names read after FROM, JOIN or a comma between tables, and wherever they
 * qualify a column), other names by `<column1>`, … (the same placeholder wherever one recurs),
 * string values by `<value>`. Keywords, functions, numbers, operators and aliases shaped like
 * `T1` stay, so the query's shape reads as before.
 *
 * The rule writer sees failures only this way: a small model shown real names copies them into
 * its rule, and a rule that names one training database's table fits no other database.
 */
export function anonymizeSql(sql: string): string {
  return anonymizeQueries([sql])[0];
}

const isName = (t: Token | undefined) => !!t && (t.kind === 'quoted' || (t.kind === 'word' && !isSqliteKeyword(t.text)));

/** Several queries on one database (a failing query and the right one), one placeholder per name across all of them. */
export function anonymizeQueries(queries: string[]): string[] {
  const tables = new Map<string, string>();
  const columns = new Map<string, string>();
  const read = queries.map((sql) => readNames(sql, tables));
  return read.map((r) => replaceNames(r, tables, columns));
}

interface ReadQuery {
  all: Token[];
  significant: Token[];
  tablePosition: Set<Token>;
  aliases: Set<string>;
}

/** Which names of the query are tables (numbered into `tables` in the order they are read) and which are aliases. */
function readNames(sql: string, tables: Map<string, string>): ReadQuery {
  const all = tokens(sql);
  const significant = all.filter((t) => t.kind !== 'space');
  const tablePosition = new Set<Token>();
  const aliases = new Set<string>();
  let clause = '';
  for (const [i, t] of significant.entries()) {
    if (t.kind === 'word' && isSqliteKeyword(t.text) && t.text.toLowerCase() !== 'as') clause = t.text.toLowerCase();
    const before = significant[i - 1]?.text.toLowerCase();
    const listed = before === 'from' || before === 'join' || (before === ',' && (clause === 'from' || clause === 'join'));
    if (listed && isName(t) && significant[i + 1]?.text !== '(') {
      tablePosition.add(t);
      if (!tables.has(nameOf(t))) tables.set(nameOf(t), `<table${tables.size + 1}>`);
      // `FROM actor a` or `FROM actor AS a`: the alias names no column.
      const alias = significant[i + 1]?.text.toLowerCase() === 'as' ? significant[i + 2] : significant[i + 1];
      if (isName(alias)) aliases.add(nameOf(alias!));
    }
  }
  return { all, significant, tablePosition, aliases };
}

function replaceNames({ all, significant, tablePosition, aliases }: ReadQuery, tables: Map<string, string>, columns: Map<string, string>): string {
  const position = new Map(significant.map((t, i) => [t, i]));
  return all
    .map((t) => {
      if (t.kind === 'string') return '<value>';
      const at = position.get(t) ?? -1;
      const next = significant[at + 1]?.text;
      const previous = significant[at - 1]?.text;
      // A double-quoted token is a string value in Spider's SQLite queries unless it stands where a name does.
      if (t.kind === 'quoted' && t.text.startsWith('"') && !tablePosition.has(t) && next !== '.' && previous !== '.') return '<value>';
      if (!isName(t)) return t.text;
      if (t.kind === 'word' && next === '(') return t.text; // a function: COUNT(…), strftime(…)
      const name = nameOf(t);
      if (aliases.has(name) || /^t\d+$/i.test(t.text)) return t.text;
      if (tablePosition.has(t) || (next === '.' && tables.has(name))) return tables.get(name)!;
      if (!columns.has(name)) columns.set(name, `<column${columns.size + 1}>`);
      return columns.get(name)!;
    })
    .join('');
}
