import type { PoolConnection } from 'mysql2/promise';

/**
 * Privileges that only read, or only show the server's state. Every other privilege (INSERT,
 * UPDATE, DELETE, CREATE, DROP, ALTER, FILE, SUPER, CREATE USER, EXECUTE of routines that may
 * write, PROXY, GRANT OPTION, ALL PRIVILEGES, ...) lets the account change something.
 */
const READ_ONLY_PRIVILEGES = new Set([
  'SELECT',
  'SHOW VIEW',
  'USAGE',
  'SHOW DATABASES',
  'PROCESS',
  'REPLICATION CLIENT',
  'BINLOG MONITOR',
  'SLAVE MONITOR',
  'REPLICA MONITOR',
  'SHOW CREATE ROUTINE',
]);

/**
 * Privileges that reach past the database's tables, which a read-only transaction does not
 * stop: they are named with what they allow, so a warning about FILE does not read like one
 * about INSERT. (MySQL 8's dynamic privileges end in _ADMIN; MariaDB split SUPER into ... ADMIN.)
 */
const SERVER_PRIVILEGES: [RegExp, string][] = [
  [/^FILE$/, "reads and writes the server's files"],
  [/^ALL( PRIVILEGES)?$/, 'every privilege, FILE and SUPER included'],
  [/^(SUPER|.*[ _]ADMIN|SET USER|SHUTDOWN|RELOAD)$/, 'changes server settings or other sessions'],
  [/^(CREATE USER|GRANT OPTION|PROXY)$/, 'changes accounts and privileges'],
];

/** What the connected account may do beyond reading: each write privilege once, in grant order. */
export async function accountWritePrivileges(conn: PoolConnection): Promise<{ account: string; writes: string[] }> {
  const [[userRow]] = (await conn.query({ sql: 'SELECT CURRENT_USER()', rowsAsArray: true })) as unknown as [string[][]];
  const [grantRows] = (await conn.query({ sql: 'SHOW GRANTS', rowsAsArray: true })) as unknown as [string[][]];
  return { account: String(userRow[0]), writes: writePrivilegesOf(grantRows.map((r) => String(r[0]))).map(describePrivilege) };
}

/** `FILE (reads and writes the server's files)`; a privilege that only writes tables stays bare. */
export function describePrivilege(privilege: string): string {
  const hit = SERVER_PRIVILEGES.find(([pattern]) => pattern.test(privilege));
  return hit ? `${privilege} (${hit[1]})` : privilege;
}

/** The write privileges in SHOW GRANTS lines (exported for the parser's own reading). */
export function writePrivilegesOf(grants: string[]): string[] {
  const writes = new Set<string>();
  for (const line of grants) {
    const on = /^GRANT\s+(.*?)\s+ON\s+/i.exec(line);
    if (!on) {
      // `GRANT role TO user`: a role's privileges are not listed here; assume it may write.
      const role = /^GRANT\s+(.*?)\s+TO\s+/i.exec(line);
      if (role) writes.add(`role ${role[1]}`);
      continue;
    }
    for (const raw of on[1].split(/,(?![^(]*\))/)) {
      const privilege = raw
        .replace(/\(.*\)/, '')
        .trim()
        .toUpperCase();
      if (privilege && !READ_ONLY_PRIVILEGES.has(privilege)) writes.add(privilege);
    }
    if (/\bWITH\s+GRANT\s+OPTION\b/i.test(line)) writes.add('GRANT OPTION');
  }
  return [...writes];
}
