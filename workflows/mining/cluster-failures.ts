import type { ErrorGroup, MineRulesInput } from '../../core/mining/mining-types';
import type { StepRunner } from '../kit/step-runner';
import type { miningActivities } from './mining-proxies';

const STAGE = 'clustering';

type Activities = ReturnType<typeof miningActivities>;

function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * DexterSQL §3.1.4 Step 3, hierarchically with the model: each database's explanations in
 * batches → groups per batch → merged into that database's groups → merged across databases.
 * Merging works on at most `batchSize` groups per call and repeats on the merged groups until
 * they fit in one call or a round merges nothing. Null when the job's budget ran out.
 */
export async function clusterFailures(
  runner: StepRunner,
  activities: Activities,
  input: MineRulesInput,
  failures: { dbId: string; ids: string[] }[],
): Promise<ErrorGroup[] | null> {
  const { batchSize } = input.clustering;
  const { llm } = activities;

  async function merge(groups: ErrorGroup[], scope: string): Promise<ErrorGroup[] | null> {
    let current = groups;
    while (current.length > 1) {
      const rounds = await Promise.all(
        chunks(current, batchSize).map((part) =>
          part.length === 1
            ? Promise.resolve(part)
            : runner
                .paidStep(
                  { stage: STAGE, name: 'mergeFailureGroups', summary: `merge ${part.length} groups (${scope})`, llmCalls: 1 },
                  (o) => llm.mergeFailureGroups.executeWithOptions(o, [{ jobId: input.jobId, groups: part }]),
                  (r) => ({ outcome: `${part.length} → ${r.groups.length} groups` }),
                )
                .then((r) => r?.groups ?? null),
        ),
      );
      if (rounds.some((r) => r === null)) return null;
      const next = rounds.flat() as ErrorGroup[];
      const fitted = current.length <= batchSize;
      if (fitted || next.length >= current.length) return next;
      current = next;
    }
    return current;
  }

  const perDatabase = await Promise.all(
    failures.map(async ({ dbId, ids }) => {
      const batches = await Promise.all(
        chunks(ids, batchSize).map((batch, b) =>
          runner
            .paidStep(
              { stage: STAGE, name: 'clusterFailures', summary: `group ${batch.length} explanations of ${dbId} (batch ${b + 1})`, llmCalls: 1 },
              (o) => llm.clusterFailures.executeWithOptions(o, [{ jobId: input.jobId, ids: batch }]),
              (r) => ({ outcome: `${r.groups.length} groups` }),
            )
            .then((r) => r?.groups ?? null),
        ),
      );
      if (batches.some((g) => g === null)) return null;
      // One batch is already grouped; several are compared and merged into the database's groups.
      return batches.length === 1 ? batches[0] : merge(batches.flat() as ErrorGroup[], dbId);
    }),
  );
  if (perDatabase.some((g) => g === null)) return null;
  return perDatabase.length === 1 ? perDatabase[0] : merge(perDatabase.flat() as ErrorGroup[], 'across databases');
}
