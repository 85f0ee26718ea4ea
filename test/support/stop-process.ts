import type { ChildProcess } from 'node:child_process';

/**
 * Stops a server the tests started: SIGTERM, the clean shutdown of MariaDB and Qdrant alike
 * (they flush and close their storage), then SIGKILL only if it hangs. `graceMs` 0 kills at
 * once, as a crash would.
 */
export async function stopProcess(server: ChildProcess, graceMs = 20_000): Promise<void> {
  if (server.exitCode !== null || server.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()));
  server.kill(graceMs > 0 ? 'SIGTERM' : 'SIGKILL');
  const timer = setTimeout(() => server.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}
