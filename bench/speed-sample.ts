import type { SampleSpec } from '../core/benchmark/stratified-sample';

/** How many Spider dev questions bench:speed asks: few enough for a full preset on a CPU in well under an hour. */
export const SPEED_SAMPLE_SIZE = 12;

/**
 * bench:speed's fixed sample of Spider dev, the same every run and on every clone: the accuracy
 * bench's seeded stratified sampling, difficulties first (12 questions cannot give each of the 20
 * databases one, and databases first they would be 11 medium ones), so the sample's hardness is
 * Spider dev's: 3 easy, 5 medium, 2 hard and 2 extra questions, over 6 databases. A smaller size
 * (`--limit`) is a smaller sample of the same kind, to try the plumbing, not a figure to compare.
 */
export function speedSample(size: number = SPEED_SAMPLE_SIZE): SampleSpec {
  return { size, seed: 1, first: 'difficulty' };
}
