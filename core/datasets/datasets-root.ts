import path from 'node:path';

/** The repository root: DECODEX_DATASETS is resolved from here, as the tests resolve it. */
const REPO_ROOT = path.resolve(__dirname, '../..');

/**
 * Benchmark data, read in place; the product never needs it. It comes from DECODEX_DATASETS
 * (relative to the checkout) or from `../shared/datasets` beside the checkout, nothing else:
 * no path of a particular machine, so a clone elsewhere says plainly where it looked.
 */
export function datasetsRoot(env: Record<string, string | undefined> = process.env, checkout: string = REPO_ROOT): string {
  return path.resolve(checkout, env.DECODEX_DATASETS || '../shared/datasets');
}
