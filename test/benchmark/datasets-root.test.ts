import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { datasetsRoot } from '../../core/datasets/datasets-root';

/** Benchmark data comes from DECODEX_DATASETS or ../shared/datasets beside the checkout, nothing else. */
describe('datasetsRoot', () => {
  // A checkout with no shared data beside it, as a clone made in a temporary folder is.
  const checkout = path.join(mkdtempSync(path.join(os.tmpdir(), 'decodex-clone-')), 'decodex');

  it('falls back to ../shared/datasets beside the checkout even when it does not exist, never to a machine path', () => {
    expect(datasetsRoot({}, checkout)).toBe(path.resolve(checkout, '../shared/datasets'));
  });

  it('resolves DECODEX_DATASETS from the checkout', () => {
    expect(datasetsRoot({ DECODEX_DATASETS: 'data' }, checkout)).toBe(path.join(checkout, 'data'));
    expect(datasetsRoot({ DECODEX_DATASETS: '/srv/datasets' }, checkout)).toBe('/srv/datasets');
  });
});
