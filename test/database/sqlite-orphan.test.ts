import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { spiderDbPath } from './spider-files';
import { isProcessAlive as isAlive } from '../../cli/temporal/process-alive';

test('a query process whose parent died mid-query ends itself instead of running on', async () => {
  const fixture = path.join(__dirname, 'fixtures', 'orphan-runaway.ts');
  const run = spawnSync(process.execPath, ['--require', require.resolve('tsx/cjs'), fixture, spiderDbPath('car_1')], { encoding: 'utf8', timeout: 30_000 });
  expect(run.signal).toBe('SIGKILL'); // the parent died the hard way
  const pid = Number(run.stdout.trim());
  expect(pid).toBeGreaterThan(0);
  try {
    let alive = isAlive(pid);
    for (let i = 0; i < 40 && alive; i++) {
      await new Promise((r) => setTimeout(r, 50));
      alive = isAlive(pid);
    }
    expect(alive).toBe(false);
  } finally {
    if (isAlive(pid)) process.kill(pid, 'SIGKILL');
  }
});
