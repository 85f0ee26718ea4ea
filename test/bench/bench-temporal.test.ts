import { spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { until } from '../support/until';

const root = path.resolve(__dirname, '../..');

/** The pids of the processes whose parent is `pid`. */
function childrenOf(pid: number): number[] {
  return readdirSync('/proc')
    .filter((e) => /^\d+$/.test(e))
    .filter((e) => {
      try {
        return Number(readFileSync(`/proc/${e}/stat`, 'utf8').split(') ')[1].split(' ')[1]) === pid;
      } catch {
        return false;
      }
    })
    .map(Number);
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

test('a bench stopped with kill stops its Temporal server too, instead of leaving it running', async () => {
  const child = spawn(process.execPath, ['--require', 'tsx/cjs', path.join(__dirname, 'bench-temporal-child.ts')], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  await until('the bench server is up', async () => out.includes('ready'), 60_000);
  const servers = childrenOf(child.pid!);
  expect(servers.length).toBeGreaterThan(0);
  child.kill('SIGTERM');
  expect(await exited).toBe(143);
  await until('its Temporal server is gone', async () => servers.every((pid) => !alive(pid)), 10_000);
}, 90_000);
