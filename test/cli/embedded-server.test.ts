import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { resolveRuntimeConfig } from '../../core/runtime-config';
import { ensureTemporal, serverIsReady, serverPidFile, startEmbeddedServer, stopBackgroundServer } from '../../cli/temporal/embedded-server';
import { embeddedServerPids } from '../../cli/temporal/running-server';
import { freePort } from '../../devkit/free-port';
import { runCli } from '../../devkit/run-cli';
import { until } from '../support/until';

/** A home of its own on free ports, as the environment of a `decodex` process and as its resolved configuration. */
async function freshHome(prefix: string) {
  const env = {
    DECODEX_HOME: mkdtempSync(path.join(os.tmpdir(), prefix)),
    DECODEX_TEMPORAL_PORT: String(await freePort()),
    DECODEX_UI_PORT: String(await freePort()),
  };
  return { env, config: resolveRuntimeConfig(env, process.cwd()) };
}

describe('embedded Temporal server (decodex server)', () => {
  it('starts the pinned CLI with a persistent SQLite file and decodex search attributes, and stops cleanly', async () => {
    const home = mkdtempSync(path.join(os.tmpdir(), 'decodex-server-'));
    const config = resolveRuntimeConfig(
      { DECODEX_HOME: home, DECODEX_TEMPORAL_PORT: String(await freePort()), DECODEX_UI_PORT: String(await freePort()) },
      process.cwd(),
    );
    const address = `127.0.0.1:${config.embeddedPort}`;
    const first = await startEmbeddedServer(config);
    expect(await serverIsReady(address, 'default')).toBe(true);
    const ui = await fetch(config.uiUrl.replace('localhost', '127.0.0.1'));
    expect(ui.status).toBe(200);
    await first.stop!();
    expect(await serverIsReady(address, 'default')).toBe(false);
    expect(existsSync(path.join(home, 'temporal.sqlite'))).toBe(true);

    // A restart on the same file keeps working (search attributes already registered).
    const second = await startEmbeddedServer(config);
    expect(await serverIsReady(address, 'default')).toBe(true);
    await second.stop!();
  }, 120_000);

  it('can leave the server running in the background (so printed UI links work) and stop it later', async () => {
    const home = mkdtempSync(path.join(os.tmpdir(), 'decodex-server-bg-'));
    const config = resolveRuntimeConfig(
      { DECODEX_HOME: home, DECODEX_TEMPORAL_PORT: String(await freePort()), DECODEX_UI_PORT: String(await freePort()) },
      process.cwd(),
    );
    const address = `127.0.0.1:${config.embeddedPort}`;
    const endpoint = await startEmbeddedServer(config, { background: true });
    try {
      expect(endpoint.stop).toBeUndefined();
      expect(endpoint.backgroundPid).toBeGreaterThan(0);
      expect(existsSync(serverPidFile(config))).toBe(true);
      expect(await serverIsReady(address, 'default')).toBe(true);
    } finally {
      expect(await stopBackgroundServer(config)).toEqual([endpoint.backgroundPid]);
    }
    expect(await serverIsReady(address, 'default')).toBe(false);
    expect(await stopBackgroundServer(config)).toEqual([]);
  }, 120_000);

  it('a server still starting is waited for, never started twice; --stop finds it even when the pid file names a dead process', async () => {
    const { env, config } = await freshHome('decodex-server-one-');
    const address = `127.0.0.1:${config.embeddedPort}`;
    const starting = startEmbeddedServer(config, { background: true });
    try {
      await until('the server process to exist', async () => (embeddedServerPids(config) ?? []).length > 0);
      // What `ask` does meanwhile: the server does not answer yet (as under load), and must not be started again.
      const used = await ensureTemporal(config);
      const first = await starting;
      expect(used).toEqual({ address, namespace: 'default' });
      expect(embeddedServerPids(config)).toEqual([first.backgroundPid]);

      // The aftermath of a second server that died: the pid file names a process that is gone.
      writeFileSync(serverPidFile(config), '4194000');
      const stop = await runCli(['server', '--stop'], env);
      expect(stop.stderr).toContain(`stopped the Temporal dev server of ${config.home} (pid ${first.backgroundPid})`);
      expect(stop.code).toBe(0);
      expect(await serverIsReady(address, 'default')).toBe(false);
      const again = await runCli(['server', '--stop'], env);
      expect(again.stderr).toContain('no Temporal dev server was running');
    } finally {
      await starting.catch(() => undefined);
      await stopBackgroundServer(config);
    }
  }, 180_000);

  it('`decodex server` beside a running one says so and exits 1 instead of starting a second', async () => {
    const { env, config } = await freshHome('decodex-server-twice-');
    const endpoint = await startEmbeddedServer(config, { background: true });
    try {
      const run = await runCli(['server'], env);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(`this home's Temporal dev server (pid ${endpoint.backgroundPid}) already listens on 127.0.0.1:${config.embeddedPort}`);
      expect(run.stderr).toMatch(/decodex server --stop/);
      expect(run.stderr).not.toMatch(/Press Ctrl-C/);
      expect(embeddedServerPids(config)).toEqual([endpoint.backgroundPid]);
    } finally {
      await stopBackgroundServer(config);
    }
  }, 180_000);
});
