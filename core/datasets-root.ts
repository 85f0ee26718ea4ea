import path from 'node:path';

/**
 * Where benchmark data lives (DECODEX_DATASETS, default `../shared/datasets` next to the
 * checkout). Only benchmarks and tests read it, in place; the product never needs it.
 */
export function datasetsRoot(env: Record<string, string | undefined> = process.env): string {
  return path.resolve(__dirname, '..', env.DECODEX_DATASETS ?? '../shared/datasets');
}
