import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { childEnv } from '../../devkit/run-cli';

/**
 * `decodex` starts Node through bin/decodex-node, which sets glibc's malloc arenas and threshold
 * and V8's heap settings, by role: preparation gets a small young generation, questions keep
 * V8's (bench:prepare and bench:load measure workers started this way). These tests run the real
 * scripts and read the settings back from inside the Node process they start.
 */
const BIN = path.resolve(__dirname, '../../bin');
const dir = mkdtempSync(path.join(os.tmpdir(), 'decodex-process-settings-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * Prints what the process got: its malloc settings, and the size of V8's young generation after
 * enough short-lived garbage to grow it to its maximum (Node's default grows it to 32 MB).
 */
const REPORT = `
const v8 = require('node:v8');
let keep = [];
for (let i = 0; i < 2e6; i++) { keep.push({ i, s: 'x' + i }); if (keep.length > 1000) keep = []; }
const newSpace = v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
process.stdout.write(JSON.stringify({
  arenas: process.env.MALLOC_ARENA_MAX ?? null,
  mmapThreshold: process.env.MALLOC_MMAP_THRESHOLD_ ?? null,
  newSpaceMb: newSpace.space_size / 2 ** 20,
  heapGrowing: process.execArgv.find((a) => a.startsWith('--heap-growing-percent=')) ?? null,
  esbuildWorkerThreads: process.env.ESBUILD_WORKER_THREADS ?? null,
}));
`;
const reportFile = path.join(dir, 'report.js');
writeFileSync(reportFile, REPORT);

interface Report {
  arenas: string | null;
  mmapThreshold: string | null;
  newSpaceMb: number;
  heapGrowing: string | null;
  esbuildWorkerThreads: string | null;
}

function run(command: string, args: string[], env: Record<string, string> = {}): Report {
  return JSON.parse(execFileSync(command, args, { env: childEnv(env), encoding: 'utf8' })) as Report;
}

describe('decodex process settings (bin/decodex-node)', () => {
  it('Node started plainly has none of them (what the settings change)', () => {
    const plain = run(process.execPath, [reportFile]);
    expect(plain).toMatchObject({ arenas: null, mmapThreshold: null, heapGrowing: null, esbuildWorkerThreads: null });
    expect(plain.newSpaceMb).toBeGreaterThan(8);
  });

  it("questions (the default role): two malloc arenas, a fixed mmap threshold, a 30% old-generation growth, V8's young generation", () => {
    const tuned = run(path.join(BIN, 'decodex-node'), [reportFile]);
    expect(tuned).toMatchObject({ arenas: '2', mmapThreshold: '131072', heapGrowing: '--heap-growing-percent=30', esbuildWorkerThreads: '0' });
    expect(tuned.newSpaceMb).toBeGreaterThan(8);
  });

  it('preparation: the same and a 1 MB young generation; an unknown role is refused', () => {
    const tuned = run(path.join(BIN, 'decodex-node'), [reportFile], { DECODEX_NODE_ROLE: 'preparation' });
    expect(tuned).toMatchObject({ arenas: '2', mmapThreshold: '131072', heapGrowing: '--heap-growing-percent=30' });
    expect(tuned.newSpaceMb).toBeLessThanOrEqual(2);
    expect(() => run(path.join(BIN, 'decodex-node'), [reportFile], { DECODEX_NODE_ROLE: 'prep' })).toThrow(
      /DECODEX_NODE_ROLE must be 'questions' or 'preparation'/,
    );
  });

  it('keeps what the caller set', () => {
    const own = run(path.join(BIN, 'decodex-node'), [reportFile], { MALLOC_ARENA_MAX: '4', DECODEX_NODE_FLAGS: '--max-semi-space-size=8' });
    expect(own).toMatchObject({ arenas: '4', mmapThreshold: '131072', heapGrowing: null });
    expect(own.newSpaceMb).toBeGreaterThan(2);
    // Empty: V8's own defaults.
    const defaults = run(path.join(BIN, 'decodex-node'), [reportFile], { DECODEX_NODE_FLAGS: '' });
    expect(defaults.heapGrowing).toBeNull();
    expect(defaults.newSpaceMb).toBeGreaterThan(8);
  });

  describe('the decodex command, linked as npm links it, runs the CLI with the role of its command', () => {
    const link = path.join(dir, 'decodex');
    beforeAll(() => symlinkSync(path.join(BIN, 'decodex'), link));
    /** The CLI fails on the preloaded report's output or prints usage; the report, preloaded, says what its process got. */
    const reportOf = (args: string[]): Report => {
      let out: string;
      try {
        out = execFileSync(link, args, {
          env: childEnv({ NODE_OPTIONS: `--require ${reportFile}` }),
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'ignore'],
          timeout: 30_000,
        });
      } catch (err) {
        out = String((err as { stdout?: string }).stdout ?? '');
      }
      return JSON.parse(out.slice(0, out.indexOf('}') + 1)) as Report;
    };

    it.each([
      [['--help'], 'questions'],
      [['worker', '--queue', 'online', '--help'], 'questions'],
      [['worker', '--queue', 'offline', '--queue', 'llm', '--help'], 'questions'],
      [['worker', '--queue=offline', '--help'], 'preparation'],
      [['prepare', '--help'], 'preparation'],
      [['mine-rules', '--help'], 'preparation'],
    ])('%j runs as %s', (args, role) => {
      const report = reportOf(args);
      expect(report).toMatchObject({ arenas: '2', mmapThreshold: '131072', heapGrowing: '--heap-growing-percent=30' });
      if (role === 'preparation') expect(report.newSpaceMb).toBeLessThanOrEqual(2);
      else expect(report.newSpaceMb).toBeGreaterThan(8);
    });

    it('runs no esbuild service beside the CLI, even when tsx has to compile (tsx uses short esbuild runs instead)', () => {
      // Lists the process's children once the CLI's modules are loaded (at exit).
      const probe = path.join(dir, 'children.js');
      writeFileSync(
        probe,
        `process.on('exit', () => { const fs = require('node:fs'); const kids = fs.readdirSync('/proc/self/task').flatMap((t) => fs.readFileSync('/proc/self/task/' + t + '/children', 'utf8').trim().split(/\\s+/).filter(Boolean)); process.stderr.write('CHILDREN ' + JSON.stringify(kids.map((p) => { try { return fs.readFileSync('/proc/' + p + '/cmdline', 'utf8'); } catch { return ''; } })) + '\\n'); });`,
      );
      // A temporary folder of its own: tsx's cache of compiled files is empty, so it compiles.
      const coldCache = mkdtempSync(path.join(dir, 'tmp-'));
      const run = spawnSync(link, ['--help'], { env: childEnv({ NODE_OPTIONS: `--require ${probe}`, TMPDIR: coldCache }), encoding: 'utf8', timeout: 60_000 });
      const line = run.stderr.split('\n').find((l) => l.startsWith('CHILDREN '))!;
      expect((JSON.parse(line.slice('CHILDREN '.length)) as string[]).filter((c) => c.includes('esbuild'))).toEqual([]);
    });

    it('prints the CLI usage', () => {
      expect(execFileSync(link, ['--help'], { env: childEnv({}), encoding: 'utf8' })).toContain('Usage:');
    });
  });
});
