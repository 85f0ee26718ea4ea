import { existsSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { resolveRuntimeConfig } from '../../core/runtime-config';
import { serverIsReady, serverPidFile, startEmbeddedServer, stopBackgroundServer } from '../../cli/temporal/embedded-server';
import { freePort } from '../support/free-port';

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
      expect(await stopBackgroundServer(config)).toBe(true);
    }
    expect(await serverIsReady(address, 'default')).toBe(false);
    expect(await stopBackgroundServer(config)).toBe(false);
  }, 120_000);
});
