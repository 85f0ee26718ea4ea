/**
 * A short name for a database spec, used as the DecodexDatabase search attribute and in
 * workflow ids: `concert_singer` for `.../concert_singer.sqlite`, `db` for `mysql://h:3306/db`.
 * Passwords in URLs never reach the label.
 */
export function databaseLabel(spec: string): string {
  if (/^(mysql|mariadb):\/\//i.test(spec)) {
    const url = new URL(spec.replace(/^mariadb:/i, 'mysql:'));
    return url.pathname.replace(/^\//, '') || url.hostname;
  }
  const base = spec.split(/[\\/]/).pop() ?? spec;
  return base.replace(/\.(sqlite3?|db)$/i, '');
}

/** The spec with any password replaced, safe for logs, summaries and the Web UI. */
export function redactDatabaseSpec(spec: string): string {
  return spec.replace(/^((?:mysql|mariadb):\/\/[^:/@]+:)[^@]*@/i, '$1***@');
}
