import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './free-port';
import { ownServerProcess } from './stop-process';

export interface RunningPostgres {
  /** `postgres://postgres@127.0.0.1:PORT/postgres`: the superuser, no password (trust on 127.0.0.1 only). */
  url: string;
  /** The data directory, so a test can fingerprint the server's files. */
  dataDir: string;
  stop(): Promise<void>;
}

/** The one role of the test server that logs in with a password (see pg_hba.conf below). */
export const PASSWORD_ROLE = 'decodex_password_reader';

export type PostgresBinaries = { initdb: string; postgres: string } | { missing: string };

/** Debian installs each major version under its own directory; the newest found wins. */
const DEBIAN_ROOT = '/usr/lib/postgresql';

/**
 * Where `initdb` and `postgres` are: POSTGRES_BIN (a directory), then PATH, then Debian's
 * /usr/lib/postgresql/<major>/bin. Reported, not installed: `scripts/setup.sh --test-services`
 * installs the `postgresql` package.
 */
export function findPostgresBinaries(env: Record<string, string | undefined> = process.env): PostgresBinaries {
  const dirs = [
    ...(env.POSTGRES_BIN ? [env.POSTGRES_BIN] : []),
    ...(env.PATH ?? '').split(':').filter(Boolean),
    ...(existsSync(DEBIAN_ROOT)
      ? readdirSync(DEBIAN_ROOT)
          .filter((v) => /^\d+$/.test(v))
          .sort((a, b) => Number(b) - Number(a))
          .map((v) => path.join(DEBIAN_ROOT, v, 'bin'))
      : []),
  ];
  for (const dir of dirs) {
    const initdb = path.join(dir, 'initdb');
    const postgres = path.join(dir, 'postgres');
    if (existsSync(initdb) && existsSync(postgres)) return { initdb, postgres };
  }
  return {
    missing: `no PostgreSQL server (initdb and postgres not on PATH, in POSTGRES_BIN or under ${DEBIAN_ROOT}/<version>/bin; install the postgresql package)`,
  };
}

/**
 * PostgreSQL refuses to run as root. Under root (a container, CI) the server runs as the
 * `postgres` account the Debian package creates, else as `nobody`; otherwise as ourselves.
 */
function serverAccount(): { uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null;
  for (const name of ['postgres', 'nobody']) {
    const id = spawnSync('id', ['-u', name], { encoding: 'utf8' });
    const gid = spawnSync('id', ['-g', name], { encoding: 'utf8' });
    if (id.status === 0 && gid.status === 0) return { uid: Number(id.stdout.trim()), gid: Number(gid.stdout.trim()) };
  }
  throw new Error('PostgreSQL cannot run as root and there is no postgres or nobody account to run it as');
}

/**
 * A throw-away PostgreSQL server for tests, as a process (like the MariaDB one): a fresh cluster
 * in a temp dir, the superuser `postgres` trusted on 127.0.0.1 only, a free port, its socket in
 * the temp dir. fsync is off: a test server's durability is not worth the writes.
 */
export async function startPostgres(binaries: { initdb: string; postgres: string }): Promise<RunningPostgres> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'decodex-postgres-'));
  const dataDir = path.join(dir, 'data');
  const account = serverAccount();
  if (account) chownSync(dir, account.uid, account.gid);
  const asAccount = account ? { uid: account.uid, gid: account.gid } : {};
  const init = spawnSync(binaries.initdb, ['-D', dataDir, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--locale=C.UTF-8', '--no-sync'], {
    encoding: 'utf8',
    ...asAccount,
  });
  if (init.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`initdb failed (${init.status}): ${init.stderr || init.stdout}`);
  }
  // Only 127.0.0.1 and the private socket, trusted, except the role PASSWORD_ROLE, which must give
  // its password (SCRAM), so tests can show credentials reach the server and never a message.
  writeFileSync(
    path.join(dataDir, 'pg_hba.conf'),
    `local all all trust\nhost all ${PASSWORD_ROLE} 127.0.0.1/32 scram-sha-256\nhost all all 127.0.0.1/32 trust\n`,
  );
  if (account) chownSync(path.join(dataDir, 'pg_hba.conf'), account.uid, account.gid);

  const port = await freePort();
  const settings = {
    listen_addresses: '127.0.0.1',
    port: String(port),
    unix_socket_directories: dir,
    fsync: 'off',
    synchronous_commit: 'off',
    full_page_writes: 'off',
    shared_buffers: '32MB',
    max_connections: '60',
  };
  const server = spawn(binaries.postgres, ['-D', dataDir, ...Object.entries(settings).flatMap(([k, v]) => ['-c', `${k}=${v}`])], {
    stdio: ['ignore', 'ignore', 'pipe'],
    ...asAccount,
  });
  let stderr = '';
  server.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  // SIGTERM is PostgreSQL's "smart" shutdown, which waits for clients; SIGINT ("fast") does not.
  const { stop } = await ownServerProcess(server, dir, () => waitUntilAnswering(server, binaries, dir, port, () => stderr), 'SIGINT');
  return { url, dataDir, stop };
}

/** pg_isready beside the server binary answers without a client library. */
async function waitUntilAnswering(server: ChildProcess, binaries: { postgres: string }, socketDir: string, port: number, stderr: () => string): Promise<void> {
  const isReady = path.join(path.dirname(binaries.postgres), 'pg_isready');
  const deadline = Date.now() + 60_000;
  let exited = false;
  server.once('exit', () => (exited = true));
  for (;;) {
    const probe = existsSync(isReady)
      ? spawnSync(isReady, ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-d', 'postgres', '-q'])
      : { status: stderr().includes('ready to accept connections') ? 0 : 1 };
    if (probe.status === 0) return;
    if (exited || Date.now() > deadline) {
      throw new Error(`PostgreSQL did not start (${exited ? 'it exited' : 'no answer in 60 s'}; socket dir ${socketDir}):\n${stderr()}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}
