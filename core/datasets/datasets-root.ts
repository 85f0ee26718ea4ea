import { existsSync } from 'node:fs';
import path from 'node:path';

/** The repository root: DECODEX_DATASETS is resolved from here, as the tests resolve it. */
const REPO_ROOT = path.resolve(__dirname, '../..');

/**
 * Where decodex's development machines keep the shared benchmark data. Used only when
 * DECODEX_DATASETS is unset and the default `../shared/datasets` next to the checkout does not
 * exist (a clone made elsewhere, e.g. by CI in a temporary folder).
 */
const SHARED_MACHINE_DATASETS = '/work/shared/datasets';

/** Benchmark data (DECODEX_DATASETS, default ../shared/datasets), read in place; the product never needs it. */
export function datasetsRoot(env: Record<string, string | undefined> = process.env): string {
  if (env.DECODEX_DATASETS) return path.resolve(REPO_ROOT, env.DECODEX_DATASETS);
  const besideCheckout = path.resolve(REPO_ROOT, '../shared/datasets');
  if (!existsSync(besideCheckout) && existsSync(SHARED_MACHINE_DATASETS)) return SHARED_MACHINE_DATASETS;
  return besideCheckout;
}
