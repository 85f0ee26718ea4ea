import { continueAsNew, executeChild, setCurrentDetails, setHandler } from '@temporalio/workflow';
import { estimateCost } from '../core/benchmark/cost';
import { RunBudget } from '../core/budget';
import type { BenchmarkQuestion } from '../core/datasets/benchmark-question';
import type { CorrectionRule } from '../core/knowledge/knowledge-types';
import type { MineRulesInput, MineRulesResult, MiningProgress } from '../core/mining/mining-types';
import { taskQueue } from '../core/task-queues';
import { totalTokens, type RunUsage } from '../core/usage';
import { runQuestionWindow } from './kit/question-window';
import { failureMessage, StepRunner } from './kit/step-runner';
import type { mineTrainingQuestion } from './mine-training-question';
import { miningProgressQuery, traceQuery } from './queries';
import { clusterFailures } from './mining/cluster-failures';
import { miningActivities } from './mining/mining-proxies';

/** Questions fetched per activity call: enough to keep the window full, small as a payload. */
const PAGE = 25;

export interface MineRulesState {
  runs: number;
  /** Where the next run starts scanning for unmined questions. */
  nextIndex: number;
}

/**
 * DexterSQL's rule creator (§3.1.4) as a job that survives anything and never pays twice:
 *
 * 1. error mining + 2. isolation: the job's stratified, seeded sample is frozen in the store;
 *    each question is a `mineTrainingQuestion` child (id `<job>/q<index>`) whose stored record
 *    marks it done, so resumes hand out only questions without one. At most `concurrency` run at
 *    once; every `questionsPerRun` questions the window drains and the job continues as new.
 * 3. clustering and 4. rule synthesis run once every question is mined; the rules are published
 *    as a new version where the online correction reads them.
 *
 * The budget (tokens, calls, dollars) covers the whole job: each run starts from what the stored
 * records say was spent. When it runs out no new question starts, the ones in flight finish, and
 * the job ends `budget_exhausted` with what it mined; rerunning it with a larger budget resumes.
 * Crashes cost nothing twice: finished activities are in the history, and a repeated model call
 * is answered from the LLM cache.
 */
export async function mineRules(input: MineRulesInput, state?: MineRulesState): Promise<MineRulesResult> {
  const activities = miningActivities(input.answer.limits, input.sqlTimeoutMs);
  const { offline, llm, prefix } = activities;
  const runs = (state?.runs ?? 0) + 1;
  const priced = (usage: RunUsage) => (input.prices ? estimateCost(usage, input.roleModels ?? {}, input.prices) : null);

  const progress: MiningProgress = {
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
  };
  setHandler(miningProgressQuery, () => ({ ...progress }));
  const status = await offline.openMiningJob.executeWithOptions(
    { summary: `sample ${input.sample.size} questions of ${input.dataset} (seed ${input.sample.seed})` },
    [input],
  );
  const budget = new RunBudget(
    { maxTokens: input.budget.maxTokens, maxLlmCalls: input.budget.maxLlmCalls, maxCostUsd: input.budget.maxCostUsd },
    () => Date.now(),
    { usage: status.usage },
    priced,
  );
  const runner = new StepRunner(budget, 2);
  setHandler(traceQuery, () => runner.trace);
  Object.assign(progress, {
    phase: 'mining',
    total: status.total,
    done: status.done,
    failures: status.failures,
    agnosticFailures: status.agnosticFailures,
    examples: status.examples,
  });
  runner.note('mining', 'examples', 'examples shown to the mined questions', { outcome: status.examples });
  const show = () => {
    const u = budget.usage;
    Object.assign(progress, { llmCalls: u.llmCalls - u.cacheHits, tokens: totalTokens(u), costUsd: priced(u), stoppedBy: budget.stoppedBy?.message });
    const cost = progress.costUsd === null ? '' : `, $${progress.costUsd.toFixed(4)}`;
    setCurrentDetails(
      [
        `**${progress.phase}**: ${progress.done}/${progress.total} questions mined (${progress.inFlight} in flight${progress.failedQuestions ? `, ${progress.failedQuestions} failed` : ''}), run ${runs} of this chain`,
        `failures ${progress.failures}, database-agnostic ${progress.agnosticFailures}; groups ${progress.groups} (dominant ${progress.dominantGroups}); rules ${progress.rules}`,
        `spent: ${progress.llmCalls} paid LLM calls, ${progress.tokens} tokens${cost}${progress.stoppedBy ? `; **stopped**: ${progress.stoppedBy}` : ''}`,
      ].join('\n\n'),
    );
  };
  show();

  // Steps 1–2: one child per question, in windows.
  async function mine(question: BenchmarkQuestion): Promise<void> {
    try {
      const brief = await executeChild<typeof mineTrainingQuestion>('mineTrainingQuestion', {
        workflowId: `${input.jobId}/q${question.index}`,
        taskQueue: taskQueue('offline', prefix),
        args: [{ jobId: input.jobId, question, answer: input.answer, sqlTimeoutMs: input.sqlTimeoutMs }],
        staticSummary: `mine: ${question.question.slice(0, 180)}`,
      });
      budget.recordRun(brief.usage);
      progress.done++;
      progress.failures += brief.failures;
      progress.agnosticFailures += brief.agnosticFailures;
    } catch (err) {
      // A question whose workflow failed is left unmined (no record): the next run of the job retries it.
      progress.failedQuestions++;
      progress.lastFailure = `question ${question.index}: ${failureMessage(err)}`;
      runner.note('mining', 'mineTrainingQuestion', `question ${question.index} failed`, { outcome: failureMessage(err) });
    }
  }

  const window = await runQuestionWindow({
    total: status.total,
    nextIndex: state?.nextIndex ?? 0,
    concurrency: input.concurrency,
    perRun: input.questionsPerRun,
    fetch: (from) =>
      offline.nextMiningQuestions.executeWithOptions({ summary: `unmined questions from #${from}` }, [{ jobId: input.jobId, from, count: PAGE }]),
    budget,
    handle: mine,
    onInFlight: (n) => {
      progress.inFlight = n;
      show();
    },
  });

  const stopped = (): MineRulesResult => {
    progress.phase = 'stopped';
    show();
    return { status: 'budget_exhausted', progress: { ...progress }, rules: [], stoppedBy: budget.stoppedBy!.message };
  };
  if (budget.stoppedBy) return stopped();
  if (window.resumeFrom !== null) return continueAsNew<typeof mineRules>(input, { runs, nextIndex: window.resumeFrom });
  // Questions whose workflow failed stay unmined (progress.failedQuestions): rules come from the rest,
  // and running the job again mines exactly those.

  // Step 3: hierarchical clustering of the database-agnostic failures.
  progress.phase = 'clustering';
  show();
  const failures = await offline.listAgnosticFailures.executeWithOptions({ summary: 'database-agnostic failures by training database' }, [
    { jobId: input.jobId },
  ]);
  const groups = await clusterFailures(runner, activities, input, failures);
  if (!groups) return stopped();
  const dominant = groups
    .filter((g) => g.members.length >= input.clustering.minGroupSize)
    .sort((a, b) => b.members.length - a.members.length || (a.label < b.label ? -1 : a.label > b.label ? 1 : 0));
  Object.assign(progress, { groups: groups.length, dominantGroups: dominant.length, phase: 'synthesis' });
  runner.stageDone('clustering');
  show();

  // Step 4: one rule per dominant group, published as a new version of the rule set.
  const written = await Promise.all(
    dominant.map((group, i) =>
      runner.paidStep(
        { stage: 'synthesis', name: 'synthesizeRule', summary: `rule from "${group.label}" (${group.members.length} failures)`, llmCalls: 1 },
        (o) => llm.synthesizeRule.executeWithOptions(o, [{ jobId: input.jobId, ruleId: `mined-${i + 1}`, group, shown: input.clustering.explanationsPerRule }]),
        (r) => ({ outcome: r.rule.gist }),
      ),
    ),
  );
  if (written.some((w) => w === null)) return stopped();
  const rules: CorrectionRule[] = written.map((w) => w!.rule);
  // A job that found no dominant group leaves the published rules as they are (an empty set would erase them).
  const published = rules.length
    ? await offline.publishMinedRules.executeWithOptions({ summary: `publish ${rules.length} rules for the online correction` }, [
        { jobId: input.jobId, rules },
      ])
    : null;
  if (!published) runner.note('synthesis', 'publishMinedRules', 'no dominant error group', { skipped: 'no rule to publish; the stored rules are unchanged' });
  Object.assign(progress, { rules: rules.length, phase: 'done' });
  runner.stageDone('synthesis');
  show();
  return { status: 'completed', progress: { ...progress }, rules, ...(published ? { rulesVersion: published.version } : {}) };
}
