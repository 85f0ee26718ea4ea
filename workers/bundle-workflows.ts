import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

/** Bundling takes 2-3 s on 2 cores; far longer means something is wrong. */
const BUNDLE_TIMEOUT_MS = 5 * 60_000;

/**
 * decodex's workflows bundled by webpack, as a worker loads them, with the bundling done in a
 * short-lived child process (workers/bundle-workflows-main.ts). Run in the worker's own process,
 * webpack left about 110 MB behind for the process's whole life (measured after a full garbage
 * collection), more than a preparation's own data at its peak; the child gives it all back when
 * it exits.
 */
export async function bundleWorkflows(): Promise<{ code: string }> {
  const entry = require.resolve('./bundle-workflows-main');
  // From TypeScript sources (tsx, ts-jest) the child needs tsx to read its entry.
  const execArgv = entry.endsWith('.ts') ? ['--require', require.resolve('tsx/cjs')] : [];
  const dir = mkdtempSync(path.join(os.tmpdir(), 'decodex-workflow-bundle-'));
  const output = path.join(dir, 'workflows.js');
  try {
    await promisify(execFile)(process.execPath, [...execArgv, entry, output], { timeout: BUNDLE_TIMEOUT_MS, maxBuffer: 16 * 2 ** 20 });
    return { code: readFileSync(output, 'utf8') };
  } catch (err) {
    const stderr = (err as { stderr?: string }).stderr?.trim();
    throw new Error(`bundling the workflows failed${stderr ? `: ${stderr}` : ''}`, { cause: err });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
