import { setHandler } from '@temporalio/workflow';
import { estimateCost } from '../../core/benchmark/cost';
import { RunBudget } from '../../core/budget';
import type { MineRulesInput, MiningProgress } from '../../core/mining/mining-types';
import { totalTokens, type RunUsage } from '../../core/usage';
import { JobProgress } from '../kit/job-progress';
import { StepRunner } from '../kit/step-runner';
import { miningProgressQuery, traceQuery } from '../queries';
import { miningActivities } from './mining-proxies';

/** One run of `mineRules`: its input, activities, the job's budget, step runner and progress, shared by its steps. */
export interface MiningJob {
  input: MineRulesInput;
  activities: ReturnType<typeof miningActivities>;
  budget: RunBudget;
  runner: StepRunner;
  progress: JobProgress<MiningProgress>;
  /** Shows what the job has spent (paid calls, tokens, dollars) with its progress. */
  showSpending: () => void;
}

export function startMiningJob(input: MineRulesInput, runs: number): MiningJob {
  const priced = (usage: RunUsage) => (input.prices ? estimateCost(usage, input.roleModels ?? {}, input.prices) : null);
  // The job's budget covers every run of it: the opening step adds what the stored records say was spent.
  const budget = new RunBudget(
    { maxTokens: input.budget.maxTokens, maxLlmCalls: input.budget.maxLlmCalls, maxCostUsd: input.budget.maxCostUsd },
    () => Date.now(),
    undefined,
    priced,
  );
  const runner = new StepRunner(budget, 2);
  setHandler(traceQuery, () => runner.trace);
  const progress = new JobProgress<MiningProgress>(
    miningProgressQuery,
    {
      phase: 'sampling',
      total: 0,
      done: 0,
      inFlight: 0,
      failedQuestions: 0,
      failures: 0,
      agnosticFailures: 0,
      groups: 0,
      dominantGroups: 0,
      rules: 0,
      llmCalls: 0,
      tokens: 0,
      costUsd: null,
      runs,
    },
    renderMiningProgress,
  );
  const showSpending = () => {
    const u = budget.usage;
    progress.update({ llmCalls: u.llmCalls - u.cacheHits, tokens: totalTokens(u), costUsd: priced(u), stoppedBy: budget.stoppedBy?.message });
  };
  return { input, activities: miningActivities(input.answer.limits, input.sqlTimeoutMs), budget, runner, progress, showSpending };
}

function renderMiningProgress(p: Readonly<MiningProgress>): string {
  const cost = p.costUsd === null ? '' : `, $${p.costUsd.toFixed(4)}`;
  return [
    `**${p.phase}**: ${p.done}/${p.total} questions mined (${p.inFlight} in flight${p.failedQuestions ? `, ${p.failedQuestions} failed` : ''}), run ${p.runs} of this chain`,
    `failures ${p.failures}, database-agnostic ${p.agnosticFailures}; groups ${p.groups} (dominant ${p.dominantGroups}); rules ${p.rules}`,
    `spent: ${p.llmCalls} paid LLM calls, ${p.tokens} tokens${cost}${p.stoppedBy ? `; **stopped**: ${p.stoppedBy}` : ''}`,
  ].join('\n\n');
}
