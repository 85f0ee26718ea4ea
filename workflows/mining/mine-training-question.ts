import { executeChild, setHandler } from '@temporalio/workflow';
import type { AnswerQuestionResult } from '../../core/answer-question-types';
import { resolveLimits } from '../../core/question-limits';
import { RunBudget } from '../../core/budget';
import { databaseLabel } from '../../core/database-label';
import type { MineQuestionBrief, MineQuestionInput, MinedQuestionRecord } from '../../core/mining/mining-types';
import { DATABASE } from '../../core/search-attributes';
import { taskQueue } from '../../core/task-queues';
import type { answerQuestion } from '../answer-question';
import { awaitAnswer } from '../../core/unanswered-run';
import { traceQuery } from '../queries';
import { failureMessage, StepRunner } from '../kit/step-runner';
import { mayRunOnceMore, outOfTime } from '../kit/once-more-if-out-of-time';
import { mergeUsage } from '../../core/usage';
import { explainMismatches } from './explain-mismatches';
import { miningActivities } from './mining-proxies';

const STAGE = 'mining';

/**
 * Mines one training question (DexterSQL §3.1.4 Steps 1–2), as its own workflow so that a
 * finished question is never redone and a crash resumes it at its last finished step:
 * answer it through the real online pipeline (a child `answerQuestion`), compare every candidate
 * with the gold SQL on the training database, explain each mismatch (one explanation per
 * problem), judge each explanation database-agnostic or not, and store the record. The record,
 * written last, is what marks the question done. A first run that ran out of time stores none and
 * says so, and the job runs the question once more (kit/once-more-if-out-of-time.ts).
 */
export async function mineTrainingQuestion(input: MineQuestionInput): Promise<MineQuestionBrief> {
  const { offline, llm, prefix } = miningActivities(input.answer.limits, input.sqlTimeoutMs);
  const limits = resolveLimits(input.answer.limits);
  // The question's own budget bounds its answer run plus its explanations; the job's budget is the parent's.
  const runner = new StepRunner(new RunBudget(limits.budget, () => Date.now()), 4);
  setHandler(traceQuery, () => runner.trace);
  const q = input.question;
  const answerId = `${input.jobId}/q${q.index}${input.again ? '/again' : ''}/answer`;

  let answer: AnswerQuestionResult | null = null;
  let outcome = 'workflow_failed';
  try {
    answer = await runner.paidStep(
      { stage: STAGE, name: 'answerQuestion', summary: 'candidate SQLs from the online pipeline', llmCalls: 1 },
      () =>
        awaitAnswer(
          executeChild<typeof answerQuestion>('answerQuestion', {
            workflowId: answerId,
            taskQueue: taskQueue('online', prefix),
            args: [{ question: q.question, database: q.database, evidence: q.evidence, ...input.answer, withholdExamplesOf: q.dbId }],
            staticSummary: q.question.slice(0, 200),
            typedSearchAttributes: [{ key: DATABASE, value: databaseLabel(q.database) }],
          }),
        ),
      (r) => ({ outcome: `${r.outcome}: ${r.candidates.length} candidates` }),
    );
    outcome = answer?.outcome ?? 'budget_exhausted';
  } catch (err) {
    outcome = `workflow_failed: ${failureMessage(err)}`;
  }
  runner.stageDone('answer');
  const candidates = (answer?.candidates ?? []).map((c) => ({ path: c.path, sql: c.sql }));

  const compared = candidates.length
    ? await runner.step(
        { stage: STAGE, name: 'findCandidateMismatches', summary: `run ${candidates.length} candidates and the gold SQL on ${q.dbId}` },
        (o) => offline.findCandidateMismatches.executeWithOptions(o, [{ question: q, candidates, timeoutMs: input.sqlTimeoutMs }]),
        (m) => ({
          outcome: m.goldError
            ? `the gold SQL fails (${m.goldError}): nothing compared`
            : `${m.mismatches.length} of ${candidates.length} disagree with the gold SQL`,
        }),
      )
    : { mismatches: [] };
  const { mismatches } = compared;
  runner.stageDone('compare');

  const explanations = await explainMismatches(runner, llm, q, mismatches);

  // A first run that ran out of time stores nothing: its job runs the question once more.
  if ((outOfTime(runner.budget.stoppedBy) || outOfTime(answer?.stoppedBy)) && mayRunOnceMore(input.again ?? false))
    return { index: q.index, failures: 0, agnosticFailures: 0, usage: runner.budget.usage, outOfTime: true };
  const usage = input.earlierUsage ? mergeUsage(input.earlierUsage, runner.budget.usage) : runner.budget.usage;
  const record: MinedQuestionRecord = {
    index: q.index,
    dbId: q.dbId,
    question: q.question,
    ...(q.difficulty ? { difficulty: q.difficulty } : {}),
    outcome,
    ...(compared.goldError ? { goldError: compared.goldError } : {}),
    candidates: candidates.length,
    mismatches: mismatches.length,
    explanations,
    usage,
    workflowId: answerId,
  };
  await runner.step({ stage: STAGE, name: 'saveMinedQuestion', summary: 'store the record (the question is done)' }, (o) =>
    offline.saveMinedQuestion.executeWithOptions(o, [{ jobId: input.jobId, record }]),
  );
  return { index: q.index, failures: explanations.length, agnosticFailures: explanations.filter((e) => e.agnostic).length, usage };
}
