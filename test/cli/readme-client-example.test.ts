import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureSampleDatabase } from '../../cli/sample-database';
import { startScriptedLlm, type ScriptedLlm } from '../../devkit/scripted-llm/server';
import { runNodeScript } from '../../devkit/run-cli';
import { scriptedPipeline } from '../../devkit/scripted-pipeline';
import { startWorkerProcess, type WorkerProcess } from '../../devkit/worker-process';

const ROOT = path.resolve(__dirname, '../..');

/** The one TypeScript block of the README's "From a service" section, as printed. */
function readmeClientExample(): string {
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('### From a service'));
  const block = /```ts\n([\s\S]*?)```/.exec(section);
  if (!block) throw new Error('README.md has no ```ts block under "From a service"');
  return block[1];
}

/**
 * The README's client example, compiled and run as a service would: in a project of its own that
 * has decodex under node_modules, with only the environment a `decodex worker` beside it has
 * (a queue prefix included). It once hung for ever there: the client ignored DECODEX_QUEUE_PREFIX.
 */
describe("the README's client example", () => {
  let llm: ScriptedLlm;
  let worker: WorkerProcess;
  afterAll(async () => {
    await worker?.stop();
    await llm?.close();
  });

  it('type-checks and answers, reading TEMPORAL_ADDRESS and DECODEX_QUEUE_PREFIX from the environment', async () => {
    const code = readmeClientExample();
    const question = /question: '([^']+)'/.exec(code)?.[1];
    expect(question).toBeDefined();
    const sql = "SELECT count(*) FROM orders WHERE ordered_on LIKE '2024%'";
    llm = await startScriptedLlm({ rules: scriptedPipeline(new Map([[question!, sql]])) });
    const home = mkdtempSync(path.join(os.tmpdir(), 'decodex-readme-'));
    const env = { TEMPORAL_ADDRESS: process.env.DECODEX_TEST_TEMPORAL_ADDRESS!, DECODEX_QUEUE_PREFIX: `readme${process.pid}.` };
    worker = await startWorkerProcess({
      ...env,
      DECODEX_HOME: home,
      DECODEX_EMBEDDER: 'hashed',
      DECODEX_DATABASE_SHOP: ensureSampleDatabase(home),
      DECODEX_LLM_BASE_URL: llm.baseUrl,
      DECODEX_LLM_MODEL: 'scripted',
      DECODEX_LLM_API_KEY: 'test-key',
    });

    // A service's project: its own folder, decodex installed under node_modules, the example as an ES module (top-level await).
    const project = mkdtempSync(path.join(os.tmpdir(), 'decodex-service-'));
    mkdirSync(path.join(project, 'node_modules'));
    symlinkSync(ROOT, path.join(project, 'node_modules', 'decodex'));
    writeFileSync(path.join(project, 'example.mts'), code);
    writeFileSync(
      path.join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          module: 'esnext',
          moduleResolution: 'bundler',
          target: 'es2022',
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          esModuleInterop: true,
          types: ['node'],
          typeRoots: [path.join(ROOT, 'node_modules/@types')],
        },
        files: ['example.mts'],
      }),
    );
    execFileSync(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', project], { encoding: 'utf8' });

    const run = await runNodeScript(path.join(project, 'example.mts'), [], env, { nodeArgs: ['--import', 'tsx'], timeoutMs: 60_000 });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^answer-shop-\S+ answered /);
    expect(run.stdout).toContain(sql);
    expect(run.stdout).toMatch(/\[ \[ 8 \] \]/); // the sample's orders of 2024
  }, 120_000);
});
