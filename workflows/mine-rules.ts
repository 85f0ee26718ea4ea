import { continueAsNew } from '@temporalio/workflow';
import type { ErrorGroup, MineRulesInput, MineRulesResult } from '../core/mining/mining-types';
import { clusterFailures } from './mining/cluster-failures';
import { mineQuestions } from './mining/mine-questions';
import { startMiningJob, type MiningJob } from './mining/mining-job';
import { synthesizeRules } from './mining/synthesize-rules';

export interface MineRulesState {
  runs: number;
  /** Where the next run starts scanning for unmined questions. */
  nextIndex: number;
}

/**
 * DexterSQL's rule creator (§3.1.4) as a job that survives anything and never pays twice:
 *
 * 1. error mining + 2. isolation: the job's stratified, seeded sample is frozen in the store;
 *    each question is a `mineTrainingQuestion` child whose stored record marks it done, so
 *    resumes hand out only questions without one (workflows/mining/mine-questions.ts). Every
 *    `questionsPerRun` questions the window drains and the job continues as new.
 * 3. clustering (by the model, or by SQL shape: `clustering.method`) and 4. rule synthesis run
 *    once every question is mined; the rules are published as a new version where the online
 *    correction reads them.
 *
 * The budget (tokens, calls, dollars) covers the whole job: each run starts from what the stored
 * records say was spent. When it runs out no new question starts, the ones in flight finish, and
 * the job ends `budget_exhausted` with what it mined; rerunning it with a larger budget resumes.
 * Crashes cost nothing twice: finished activities are in the history, and a repeated model call
 * is answered from the LLM cache.
 */
export async function mineRules(input: MineRulesInput, state?: MineRulesState): Promise<MineRulesResult> {
  const runs = (state?.runs ?? 0) + 1;
  const job = startMiningJob(input, runs);
  const { runner, progress } = job;
  // The job's budget starts from what the stored records say was spent.
  const status = await runner.step(
    { stage: 'mining', name: 'openMiningJob', summary: `sample ${input.sample.size} questions of ${input.dataset} (seed ${input.sample.seed})` },
    (o) => job.activities.offline.openMiningJob.executeWithOptions(o, [input]),
  );
  job.budget.recordRun(status.usage);
  const { total, done, failures, agnosticFailures, examples } = status;
  progress.update({ phase: 'mining', total, done, failures, agnosticFailures, examples });
  runner.note('mining', 'examples', 'examples shown to the mined questions', { outcome: examples });
  job.showSpending();

  const resumeFrom = await mineQuestions(job, total, state?.nextIndex ?? 0);
  if (job.budget.stoppedBy) return stopped(job);
  if (resumeFrom !== null) return continueAsNew<typeof mineRules>(input, { runs, nextIndex: resumeFrom });
  // Questions whose workflow failed stay unmined (progress.failedQuestions): rules come from the rest,
  // and running the job again mines exactly those.

  // Step 3: the database-agnostic failures grouped, by the model's hierarchical clustering or by
  // how their queries' shapes differ from the gold queries' (plain code, no model call).
  progress.update({ phase: 'clustering' });
  const groups = input.clustering.method === 'sql-differences' ? await groupBySqlDifference(job) : await clusterByModel(job);
  if (!groups) return stopped(job);
  const dominant = groups
    .filter((g) => g.members.length >= input.clustering.minGroupSize)
    .sort((a, b) => b.members.length - a.members.length || (a.label < b.label ? -1 : a.label > b.label ? 1 : 0));
  progress.update({ groups: groups.length, dominantGroups: dominant.length, phase: 'synthesis' });
  runner.stageDone('clustering');
  job.showSpending();

  // Step 4: one rule per dominant group, published as a new version of the rule set.
  const synthesized = await synthesizeRules(job, dominant);
  if (!synthesized) return stopped(job);
  progress.update({ rules: synthesized.rules.length, phase: 'done' });
  runner.stageDone('synthesis');
  job.showSpending();
  return {
    status: 'completed',
    progress: { ...progress.state },
    rules: synthesized.rules,
    ...(synthesized.version ? { rulesVersion: synthesized.version } : {}),
  };
}

async function clusterByModel(job: MiningJob): Promise<ErrorGroup[] | null> {
  const agnostic = await job.runner.step(
    { stage: 'clustering', name: 'listAgnosticFailures', summary: 'database-agnostic failures by training database' },
    (o) => job.activities.offline.listAgnosticFailures.executeWithOptions(o, [{ jobId: job.input.jobId }]),
  );
  return clusterFailures(job.runner, job.activities, job.input, agnostic);
}

async function groupBySqlDifference(job: MiningJob): Promise<ErrorGroup[]> {
  const { groups } = await job.runner.step(
    {
      stage: 'clustering',
      name: 'groupFailuresBySqlDifference',
      summary: "database-agnostic failures grouped by how their query's shape differs from the gold query's",
    },
    (o) => job.activities.offline.groupFailuresBySqlDifference.executeWithOptions(o, [{ jobId: job.input.jobId }]),
    (r) => ({ outcome: `${r.groups.length} groups; ${r.ungrouped} failures of the gold query's shape in none` }),
  );
  return groups;
}

/** The job's end when its budget ran out: what it mined so far, no rules, and which budget stopped it. */
function stopped(job: MiningJob): MineRulesResult {
  job.progress.update({ phase: 'stopped' });
  job.showSpending();
  return { status: 'budget_exhausted', progress: { ...job.progress.state }, rules: [], stoppedBy: job.budget.stoppedBy!.message };
}
