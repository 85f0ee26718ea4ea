import type { PoolConnection } from 'mysql2/promise';
import { ReadOnlyViolation } from './target-database';

/**
 * Views whose reading can run code that changes something. A view runs with its definer's
 * rights (SQL SECURITY DEFINER, the default), so a SELECT-only account reading a view that a
 * privileged user defined over a stored function runs that function as the definer: on MariaDB
 * 10.11 such a read changed @@global.max_connections and wrote a file, and the read-only
 * transaction stops neither (only table writes). The statement guard sees the view's name,
 * never its definition, so the database checks the definitions when it opens (this file) and
 * refuses statements that name one of these views.
 */
export interface UnsafeView {
  schema: string;
  name: string;
  /** Why, for the warning and the refusal: what it calls, or why it could not be checked. */
  reason: string;
}

/** A row of information_schema.VIEWS. */
export interface ViewRow {
  schema: string;
  name: string;
  securityType: string;
  definer: string;
  /** Empty when the account may not see it (it lacks SHOW VIEW on the view). */
  definition: string;
}

/** The server's own schemas: their views (MySQL's and MariaDB's `sys`) call the server authors' functions. */
const SERVER_SCHEMAS = ['mysql', 'sys', 'information_schema', 'performance_schema'];

/**
 * Built-in functions with effects outside the query, as the server writes them in a view's
 * definition (lower case, unquoted): server locks, sequences, the server's files (LOAD_FILE reads
 * them with the definer's FILE privilege).
 */
const SIDE_EFFECT_BUILTINS = /\b(get_lock|release_lock|release_all_locks|load_file|nextval|setval)\(/gi;

/**
 * In the definition the server stores, a stored function's call is its backquoted name followed
 * directly by "(" (`` `evil`() `` or `` `db`.`evil`() ``); built-in functions are unquoted.
 */
const STORED_FUNCTION_CALL = /`((?:[^`]|``)+)`\(/g;

/** The unsafe views among all the account can see outside the server's own schemas (another database's view is one qualified name away). */
export async function readUnsafeViews(conn: PoolConnection, account: string): Promise<UnsafeView[]> {
  const [rows] = (await conn.query({
    sql:
      'SELECT TABLE_SCHEMA, TABLE_NAME, SECURITY_TYPE, DEFINER, VIEW_DEFINITION FROM information_schema.VIEWS ' +
      `WHERE TABLE_SCHEMA NOT IN (${SERVER_SCHEMAS.map(() => '?').join(', ')})`,
    values: SERVER_SCHEMAS,
    rowsAsArray: true,
  })) as unknown as [string[][]];
  return unsafeViews(
    rows.map(([schema, name, securityType, definer, definition]) => ({ schema, name, securityType, definer, definition: definition ?? '' })),
    account,
  );
}

/**
 * The views that call a stored function or a built-in with side effects, those whose
 * definition this account cannot read although they run with another account's rights, and
 * (until nothing changes) those that read one of these.
 */
export function unsafeViews(views: ViewRow[], account: string): UnsafeView[] {
  const unsafe = new Map<ViewRow, string>();
  for (const view of views) {
    const reason = ownReason(view, account);
    if (reason) unsafe.set(view, reason);
  }
  for (let grew = true; grew;) {
    grew = false;
    for (const view of views) {
      if (unsafe.has(view)) continue;
      const read = [...unsafe.keys()].find((u) => view.definition.includes(backquoted(u.name)));
      if (read) {
        unsafe.set(view, `it reads ${read.schema}.${read.name}`);
        grew = true;
      }
    }
  }
  return [...unsafe].map(([view, reason]) => ({ schema: view.schema, name: view.name, reason }));
}

function ownReason(view: ViewRow, account: string): string | null {
  const definerRights = view.securityType.toUpperCase() === 'DEFINER' && !sameAccount(view.definer, account);
  if (!view.definition) return definerRights ? `it runs with the rights of ${view.definer} and this account cannot read its definition (SHOW VIEW)` : null;
  const calls = [
    ...[...view.definition.matchAll(STORED_FUNCTION_CALL)].map((m) => `stored function ${m[1].replaceAll('``', '`')}()`),
    ...[...view.definition.matchAll(SIDE_EFFECT_BUILTINS)].map((m) => `${m[1].toUpperCase()}()`),
  ];
  if (!calls.length) return null;
  const rights = definerRights ? `, with the rights of ${view.definer}` : '';
  return `it calls ${[...new Set(calls)].join(', ')}${rights}`;
}

/** `root@localhost` (CURRENT_USER()) and `root@localhost` (a view's DEFINER); quoting differs between versions. */
function sameAccount(definer: string, account: string): boolean {
  const plain = (s: string) => s.replace(/[`'"]/g, '').toLowerCase();
  return plain(definer) === plain(account);
}

function backquoted(name: string): string {
  return '`' + name.replaceAll('`', '``') + '`';
}

/** How the warning names them. */
export function describeUnsafeViews(views: UnsafeView[]): string[] {
  return views.map((v) => `view ${v.schema}.${v.name} (${v.reason})`);
}

const NAME_CHARACTER = /[A-Za-z0-9_$\u0080-\uffff]/;

/**
 * Refuses `sql` when it names one of `views`: a view of `database` (the connection's) wherever
 * its name stands as a whole word, a view of another database when that database's name stands
 * as a word too (SQL must qualify it, and whatever comes between `db` and `.view` is not looked
 * at). In any case, quoted or not, even inside a string or a comment: the text is not tokenized,
 * so no quoting or comment trick hides a name, and a string that merely spells one is refused.
 */
export function assertNoUnsafeView(sql: string, views: UnsafeView[], database: string): void {
  const text = sql.toLowerCase();
  for (const view of views) {
    const here = view.schema.toLowerCase() === database.toLowerCase();
    if (namesWord(text, view.name) && (here || namesWord(text, view.schema)))
      throw new ReadOnlyViolation(
        `rejected a reference to view ${view.schema}.${view.name}: reading it can change the database (${view.reason}). ` +
          'Query its tables instead, or have the view changed (README, "A read-only MySQL account")',
      );
  }
}

/** `name` as a whole word of `text` (lower case), as written or, for a backquote in it, doubled as SQL spells it. */
function namesWord(text: string, name: string): boolean {
  const lower = name.toLowerCase();
  return [lower, lower.replaceAll('`', '``')].some((word) => {
    for (let at = text.indexOf(word); at >= 0; at = text.indexOf(word, at + 1)) {
      const before = text[at - 1] ?? ' ';
      const after = text[at + word.length] ?? ' ';
      if (!NAME_CHARACTER.test(before) && !NAME_CHARACTER.test(after)) return true;
    }
    return false;
  });
}
