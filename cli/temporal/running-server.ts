import { readdirSync, readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { RuntimeConfig } from '../../core/runtime-config';

/** The database file of the embedded server of a decodex home: what tells its server from any other. */
export const serverDatabaseFile = (config: Pick<RuntimeConfig, 'home'>) => path.join(config.home, 'temporal.sqlite');

/**
 * The `temporal server start-dev` processes serving this home's database file, whoever started
 * them (a background server of `ask`, a `decodex server` in another terminal), found by their
 * command lines (Linux /proc). The pid file alone is not enough: a server started twice under
 * load once overwrote it with the dead second one's pid. Null where there is no /proc to read.
 */
export function embeddedServerPids(config: Pick<RuntimeConfig, 'home'>): number[] | null {
  const dbFile = serverDatabaseFile(config);
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return null; // not Linux: the pid file and the port are what is known
  }
  return entries
    .filter((e) => /^\d+$/.test(e))
    .filter((pid) => {
      try {
        const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
        const at = args.indexOf('--db-filename');
        return args.includes('start-dev') && at >= 0 && args[at + 1] === dbFile;
      } catch {
        return false; // gone meanwhile, or not ours to read
      }
    })
    .map(Number);
}

/** Whether something accepts TCP connections on 127.0.0.1:`port` (a server, maybe still starting, maybe not Temporal). */
export function portAcceptsConnections(port: number, timeoutMs = 2_000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    const done = (open: boolean) => {
      socket.destroy();
      resolve(open);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}
