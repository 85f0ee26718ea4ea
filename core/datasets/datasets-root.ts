import path from 'node:path';

/** The repository root: DECODEX_DATASETS is resolved from here, as the tests resolve it. */
const REPO_ROOT = path.resolve(__dirname, '../..');

/** Benchmark data (DECODEX_DATASETS, default ../shared/datasets), read in place; the product never needs it. */
export function datasetsRoot(env: Record<string, string | undefined>): string {
  return path.resolve(REPO_ROOT, env.DECODEX_DATASETS ?? '../shared/datasets');
}
