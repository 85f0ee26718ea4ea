import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spiderDatabasePath } from '../../devkit/datasets';
import { UNUSED_LLM_ENV } from '../../devkit/test-workers';

const DECODEX = path.resolve(__dirname, '../../bin/decodex.js');

/** `ask --no-worker` on queues no worker polls must say so within seconds instead of waiting in silence. */
test('ask --no-worker with no worker polling says so after a few seconds and how to start one', async () => {
  const child = spawn(process.execPath, [DECODEX, 'ask', '--no-worker', '--db', spiderDatabasePath('concert_singer'), 'How many singers are on file?'], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      DECODEX_HOME: mkdtempSync(path.join(os.tmpdir(), 'decodex-noworker-')),
      TEMPORAL_ADDRESS: process.env.DECODEX_TEST_TEMPORAL_ADDRESS!,
      DECODEX_QUEUE_PREFIX: `nobody${process.pid}.`,
      ...UNUSED_LLM_ENV,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const started = Date.now();
  let stderr = '';
  try {
    const noticedAfterMs = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no notice after 30 s; stderr:\n${stderr}`)), 30_000);
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        if (/No worker polls/.test(stderr)) {
          clearTimeout(timer);
          resolve(Date.now() - started);
        }
      });
      child.once('exit', (code) => reject(new Error(`ask exited (${code}) instead of waiting:\n${stderr}`)));
    });
    expect(noticedAfterMs).toBeLessThan(20_000);
    for (const queue of ['online', 'offline', 'llm']) expect(stderr).toMatch(new RegExp(`No worker polls the task queues .*"nobody\\d+\\.${queue}"`));
    expect(stderr).toMatch(/npx decodex worker/);
    expect(stderr).toMatch(/DECODEX_QUEUE_PREFIX/);
  } finally {
    child.kill('SIGKILL');
  }
}, 60_000);
