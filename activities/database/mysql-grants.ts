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

/** What the connected account may do beyond reading: each write privilege once, in grant order. */
export async function accountWritePrivileges(conn: PoolConnection): Promise<{ account: string; writes: string[] }> {
  const [[userRow]] = (await conn.query({ sql: 'SELECT CURRENT_USER()', rowsAsArray: true })) as unknown as [string[][]];
  const [grantRows] = (await conn.query({ sql: 'SHOW GRANTS', rowsAsArray: true })) as unknown as [string[][]];
  return { account: String(userRow[0]), writes: writePrivilegesOf(grantRows.map((r) => String(r[0]))) };
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
