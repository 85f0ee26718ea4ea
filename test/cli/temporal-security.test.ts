import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Connection } from '@temporalio/client';
import { DecodexClient } from '../../cli/client';
import { installQuietRuntime } from '../../cli/commands/client-session';
import { configuredTemporal, temporalConnectionSecurity } from '../../cli/temporal/connection-options';
import { resolveRuntimeConfig } from '../../core/runtime-config';
import { PREPARATION_TASK_QUEUES } from '../../core/task-queues';
import { runWorkers } from '../../workers/run-workers';
import { spiderDatabasePath } from '../../devkit/datasets';
import { startMtlsProxy, type MtlsProxy } from '../support/mtls-proxy';
import { startGrpcRefuser } from '../support/grpc-refuser';

describe('production Temporal settings (TEMPORAL_TLS_*, TEMPORAL_API_KEY)', () => {
  const cwd = '/srv/app';
  const resolve = (env: Record<string, string>) => resolveRuntimeConfig(env, cwd).temporalSecurity;

  it('reads the temporal CLI variables: a certificate pair or an API key turns TLS on, paths are resolved', () => {
    expect(resolve({ TEMPORAL_ADDRESS: 'h:7233' })).toEqual({ tls: false, certFile: null, keyFile: null, caFile: null, serverName: null, apiKey: null });
    expect(resolve({ TEMPORAL_ADDRESS: 'h:7233', TEMPORAL_TLS_CERT: 'c.pem', TEMPORAL_TLS_KEY: '/k/c.key', TEMPORAL_TLS_CA: 'ca.pem' })).toMatchObject({
      tls: true,
      certFile: '/srv/app/c.pem',
      keyFile: '/k/c.key',
      caFile: '/srv/app/ca.pem',
    });
    expect(resolve({ TEMPORAL_ADDRESS: 'ns.acct.tmprl.cloud:7233', TEMPORAL_API_KEY: 'key' })).toMatchObject({ tls: true, apiKey: 'key' });
    expect(resolve({ TEMPORAL_ADDRESS: 'h:7233', TEMPORAL_API_KEY: 'key', TEMPORAL_TLS: 'false' })).toMatchObject({ tls: false, apiKey: 'key' });
    expect(resolve({ TEMPORAL_ADDRESS: 'h:7233', TEMPORAL_TLS: 'true' })).toMatchObject({ tls: true, certFile: null });
  });

  it('refuses settings that would be ignored or contradict each other', () => {
    expect(() => resolve({ TEMPORAL_API_KEY: 'key' })).toThrow(/TEMPORAL_API_KEY set without TEMPORAL_ADDRESS/);
    expect(() => resolve({ TEMPORAL_ADDRESS: 'h:7233', TEMPORAL_TLS_CERT: 'c.pem' })).toThrow(/go together/);
    expect(() => resolve({ TEMPORAL_ADDRESS: 'h:7233', TEMPORAL_TLS: 'yes' })).toThrow(/TEMPORAL_TLS must be true or false/);
    expect(() => resolve({ TEMPORAL_ADDRESS: 'h:7233', TEMPORAL_TLS: 'false', TEMPORAL_TLS_CA: 'ca.pem' })).toThrow(/contradicts/);
  });

  it('a missing certificate file is an error naming its setting', () => {
    const security = resolve({ TEMPORAL_ADDRESS: 'h:7233', TEMPORAL_TLS_CERT: 'nope.pem', TEMPORAL_TLS_KEY: 'nope.key' });
    expect(() => temporalConnectionSecurity(security)).toThrow(/cannot read TEMPORAL_TLS_CERT=\/srv\/app\/nope.pem/);
  });

  describe('through an mTLS front of the test server', () => {
    let proxy: MtlsProxy;
    let home: string;
    const savedEmbedder = process.env.DECODEX_EMBEDDER;
    beforeAll(async () => {
      installQuietRuntime();
      proxy = await startMtlsProxy(process.env.DECODEX_TEST_TEMPORAL_ADDRESS!);
      home = mkdtempSync(path.join(os.tmpdir(), 'decodex-mtls-home-'));
      process.env.DECODEX_EMBEDDER = 'hashed'; // runWorkers reads the process environment: no model file needed
    });
    afterAll(async () => {
      if (savedEmbedder === undefined) delete process.env.DECODEX_EMBEDDER;
      else process.env.DECODEX_EMBEDDER = savedEmbedder;
      await proxy?.close();
      rmSync(home, { recursive: true, force: true });
    });

    it('workers and the client connect with the client certificate, and a preparation runs through them', async () => {
      const config = resolveRuntimeConfig(
        {
          DECODEX_HOME: home,
          DECODEX_QUEUE_PREFIX: `mtls${process.pid}.`,
          TEMPORAL_ADDRESS: proxy.address,
          TEMPORAL_TLS_CERT: proxy.files.clientCert,
          TEMPORAL_TLS_KEY: proxy.files.clientKey,
          TEMPORAL_TLS_CA: proxy.files.ca,
        },
        cwd,
      );
      const endpoint = configuredTemporal(config)!;
      const workers = await runWorkers(endpoint, config, PREPARATION_TASK_QUEUES);
      const client = await DecodexClient.connect({ ...endpoint, queuePrefix: config.queuePrefix });
      try {
        const { result } = await client.prepare(
          { database: spiderDatabasePath('concert_singer'), config: { exploration: { useLlm: false } } },
          { workflowId: `mtls-prepare-${process.pid}` },
        );
        expect(['prepared', 'unchanged']).toContain(result.status);
        expect(proxy.accepted()).toBeGreaterThanOrEqual(2); // the client's connection and the workers' native one
      } finally {
        await client.close();
        await workers.stop();
      }
    }, 120_000);

    it('the same server refuses a connection without the client certificate', async () => {
      const refusedBefore = proxy.refused();
      const security = temporalConnectionSecurity(resolve({ TEMPORAL_ADDRESS: proxy.address, TEMPORAL_TLS_CA: proxy.files.ca }));
      await expect(Connection.connect({ address: proxy.address, ...security, connectTimeout: 5_000 })).rejects.toThrow();
      expect(proxy.refused()).toBeGreaterThan(refusedBefore);
    }, 30_000);
  });

  it('an API key goes, over TLS, with the calls of the client and of the workers', async () => {
    installQuietRuntime();
    const refuser = await startGrpcRefuser();
    const home = mkdtempSync(path.join(os.tmpdir(), 'decodex-apikey-home-'));
    try {
      const config = resolveRuntimeConfig(
        { DECODEX_HOME: home, TEMPORAL_ADDRESS: refuser.address, TEMPORAL_API_KEY: 'dx-test-key', TEMPORAL_TLS_CA: refuser.ca },
        cwd,
      );
      const endpoint = configuredTemporal(config)!;
      await expect(DecodexClient.connect({ ...endpoint, queuePrefix: config.queuePrefix })).rejects.toThrow(/Failed to connect/);
      await expect(runWorkers(endpoint, config, ['llm'])).rejects.toThrow(/refused by the test endpoint/);
      // The client's connection (grpc-js) and the workers' native one (the Rust core's tonic) both called.
      expect(new Set(refuser.seen.map((r) => r.userAgent.split('/')[0]))).toEqual(new Set(['grpc-node-js', 'tonic']));
      expect(refuser.seen.map((r) => r.authorization)).toEqual(refuser.seen.map(() => 'Bearer dx-test-key'));
    } finally {
      await refuser.close();
      rmSync(home, { recursive: true, force: true });
    }
  }, 60_000);
});
