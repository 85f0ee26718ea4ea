import type { ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';

/**
 * Stops a server the tests started: SIGTERM, the clean shutdown of MariaDB and Qdrant alike
 * (they flush and close their storage), then SIGKILL only if it hangs. `graceMs` 0 kills at
 * once, as a crash would. `signal` is the clean stop where SIGTERM is not the one (PostgreSQL's
 * SIGTERM waits for every client to leave; its SIGINT does not).
 */
export async function stopProcess(server: ChildProcess, graceMs = 20_000, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (server.exitCode !== null || server.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()));
  server.kill(graceMs > 0 ? signal : 'SIGKILL');
  const timer = setTimeout(() => server.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

/**
 * A server process the tests started in a temp dir of its own, once it answers (`ready`): killed
 * with the test process if that exits first, and `stop` ends it cleanly and removes the dir. If
 * it never answers, it is killed and the dir removed before the error is thrown.
 */
export async function ownServerProcess(
  server: ChildProcess,
  dir: string,
  ready: () => Promise<void>,
  signal: NodeJS.Signals = 'SIGTERM',
): Promise<{ stop(): Promise<void> }> {
  try {
    await ready();
  } catch (err) {
    server.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  const killOnExit = () => server.kill('SIGKILL');
  process.once('exit', killOnExit);
  return {
    stop: async () => {
      process.removeListener('exit', killOnExit);
      await stopProcess(server, 20_000, signal);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
