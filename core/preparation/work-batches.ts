/**
 * Groups a preparation's units of work (tables to profile, column pairs to measure) into
 * activities. Every activity costs Temporal the same (a schedule, a start, a completion, a
 * workflow task: about 10 ms of CPU between server and worker), however little it does, and
 * most tables of a typical database are read in milliseconds; one activity per table made that
 * fixed cost most of a small database's preparation. Units are packed in their given order
 * until the next would take a batch past `maxWork` (a unit larger than that gets a batch of its
 * own), so a small database becomes one activity while the large tables of a big one still run
 * side by side. Deterministic: workflow code calls it.
 */
export function batchByWork<T>(units: readonly T[], workOf: (unit: T) => number, maxWork: number): T[][] {
  if (!(maxWork > 0)) throw new Error(`the work per batch must be positive, got ${maxWork}`);
  const batches: T[][] = [];
  let current: T[] = [];
  let work = 0;
  for (const unit of units) {
    const w = Math.max(0, workOf(unit));
    if (current.length > 0 && work + w > maxWork) {
      batches.push(current);
      current = [];
      work = 0;
    }
    current.push(unit);
    work += w;
  }
  if (current.length > 0) batches.push(current);
  return batches;
}
