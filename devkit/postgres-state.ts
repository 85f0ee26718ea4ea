import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';

/** Runs `work` on a connection of its own to `url`, closed afterwards. */
export async function withPostgres<T>(url: string, work: (c: Client) => Promise<T>): Promise<T> {
  const c = new Client({ connectionString: url });
  await c.connect();
  try {
    return await work(c);
  } finally {
    await c.end();
  }
}

/** Whether backend `pid` is still on the server once it had up to `withinMs` to go (polled every 100 ms). */
export async function backendStillThere(url: string, pid: number, withinMs: number): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const there = await withPostgres(url, async (c) => ((await c.query('SELECT 1 FROM pg_stat_activity WHERE pid = $1', [pid])).rowCount ?? 0) > 0);
    if (!there || Date.now() > deadline) return there;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Each table's row count and rows as one md5, every schema but the system's. */
export function tableChecksums(url: string): Promise<Record<string, string>> {
  return withPostgres(url, async (c) => {
    const tables = await c.query<{ t: string }>(
      "SELECT format('%I.%I', schemaname, tablename) AS t FROM pg_tables WHERE schemaname NOT IN ('pg_catalog', 'information_schema') ORDER BY 1",
    );
    const sums: Record<string, string> = {};
    for (const { t } of tables.rows) {
      const r = await c.query<{ sum: string }>(`SELECT count(*) || ':' || coalesce(md5(string_agg(x::text, ',' ORDER BY x::text)), '') AS sum FROM ${t} x`);
      sums[t] = r.rows[0].sum;
    }
    return sums;
  });
}

/**
 * What a hostile statement could change on the server beyond a database's tables: roles and
 * their memberships, per-role and per-database settings, the server's settings as a new session
 * sees them (ALTER SYSTEM after a reload), databases, extensions, large objects, replication
 * slots, prepared transactions, advisory locks, other sessions still there.
 */
export function serverState(url: string): Promise<string> {
  return withPostgres(url, async (c) => {
    const q = async (sql: string) => (await c.query({ text: sql, rowMode: 'array' })).rows;
    return JSON.stringify({
      roles: await q('SELECT rolname, rolsuper, rolcanlogin, rolcreaterole, rolcreatedb, rolpassword IS NULL FROM pg_authid ORDER BY 1'),
      members: await q('SELECT roleid::regrole::text, member::regrole::text FROM pg_auth_members ORDER BY 1, 2'),
      roleSettings: await q('SELECT setdatabase, setrole, setconfig FROM pg_db_role_setting ORDER BY 1, 2'),
      settings: await q("SELECT name, setting FROM pg_settings WHERE source NOT IN ('session', 'client') ORDER BY 1"),
      autoConf: await q('SELECT name, setting FROM pg_file_settings ORDER BY 1, 2'),
      databases: await q('SELECT datname, datallowconn FROM pg_database ORDER BY 1'),
      extensions: await q('SELECT extname FROM pg_extension ORDER BY 1'),
      largeObjects: await q('SELECT count(*) FROM pg_largeobject_metadata'),
      slots: await q('SELECT slot_name FROM pg_replication_slots ORDER BY 1'),
      prepared: await q('SELECT gid FROM pg_prepared_xacts ORDER BY 1'),
      advisoryLocks: await q("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory'"),
    });
  });
}

/** Files PostgreSQL itself rewrites as it runs (WAL, statistics, transaction status, caches, free-space and visibility maps). */
const VOLATILE =
  /^(pg_wal|pg_stat|pg_stat_tmp|pg_xact|pg_subtrans|pg_multixact|pg_notify|pg_snapshots|pg_logical)(\/|$)|(^|\/)(pg_internal\.init|postmaster\.pid|postmaster\.opts)$|_(fsm|vm)$/;

/**
 * The names of the files in a server's data directory, except those PostgreSQL rewrites on its
 * own: a new table, a relation rewritten (a new file node), a replication slot, postgresql.auto.conf
 * (ALTER SYSTEM), a file written by COPY or lo_export into it would all show.
 */
export function dataDirectoryFiles(dataDir: string): string[] {
  const out: string[] = [];
  const walk = (relative: string) => {
    for (const name of readdirSync(path.join(dataDir, relative)).sort()) {
      const file = relative ? `${relative}/${name}` : name;
      if (VOLATILE.test(file)) continue;
      if (statSync(path.join(dataDir, file)).isDirectory()) walk(file);
      else out.push(file === 'postgresql.auto.conf' ? `${file}:${statSync(path.join(dataDir, file)).size}` : file);
    }
  };
  if (existsSync(dataDir)) walk('');
  return out;
}
