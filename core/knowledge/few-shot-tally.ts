import { REPORTED_REJECTIONS, type FewShotFileCount, type FewShotPageResult, type FewShotRejection } from './few-shot-job-types';

/** What the few-shot job's pages decided about the examples of files so far (carried across continue-as-new). */
export interface FewShotTally {
  files: Record<string, FewShotFileCount>;
  /** The job's first rejections (at most REPORTED_REJECTIONS). */
  rejections: FewShotRejection[];
}

export const emptyFewShotTally = (): FewShotTally => ({ files: {}, rejections: [] });

export function addFewShotPage(tally: FewShotTally, page: Omit<FewShotPageResult, 'examples'>): FewShotTally {
  const files = { ...tally.files };
  for (const [source, count] of Object.entries(page.files)) {
    const before = files[source] ?? { indexed: 0, rejected: 0 };
    files[source] = { indexed: before.indexed + count.indexed, rejected: before.rejected + count.rejected };
  }
  return { files, rejections: [...tally.rejections, ...page.rejections].slice(0, REPORTED_REJECTIONS) };
}

export const rejectedExamples = (tally: FewShotTally): number => Object.values(tally.files).reduce((n, c) => n + c.rejected, 0);

/**
 * Why the job must fail, or null: a file none of whose examples ran is a mistake (the wrong
 * database, another dialect, a broken export), not a source of examples, and indexing the rest
 * would hide it.
 */
export function fileWithoutExamples(tally: FewShotTally): string | null {
  const dead = Object.entries(tally.files).filter(([, c]) => c.indexed === 0);
  if (dead.length === 0) return null;
  const first = tally.rejections.find((r) => dead.some(([source]) => source === r.source));
  return (
    dead.map(([source, c]) => `none of the ${c.rejected} examples of ${source} could be run on its database, so none is indexed`).join('; ') +
    (first ? ` (first, line ${first.line}: ${first.reason})` : '')
  );
}
