import { ApplicationFailure, CancellationScope, CancelledFailure, patched, upsertSearchAttributes } from '@temporalio/workflow';
import type { AnswerQuestionInput, AnswerQuestionResult } from '../core/answer-question-types';
import { resolveLimits } from '../core/question-limits';
import type { RunError } from '../core/run-trace';
import { resolvePipelineConfig, type GenerationPath } from '../core/pipeline/pipeline-config';
import { agreementQuorum, quorumAgrees } from '../core/selection/early-agreement';
import { stillWarned } from '../core/selection/warned-candidates';
import { PRESET } from '../core/search-attributes';
import { unansweredFailure } from '../core/unanswered-run';
import { failureMessage, failureType } from './kit/step-runner';
import { answerRows } from './answer/answer-rows';
import { solveByDecomposition } from './answer/complex-route';
import { correctCandidates, type CorrectionInputs } from './answer/correct-candidates';
import { finishRun } from './answer/finish-run';
import { generateCandidates, noteUnaskedPaths, runnablePaths } from './answer/generate-candidates';
import { incorporateNotes } from './answer/incorporate-notes';
import { judgeRoute } from './answer/judge-route';
import { linkSchema } from './answer/link-schema';
import { openDatabase, openedContext } from './answer/open-database';
import { startQuestionRun, type Draft, type QuestionRun } from './answer/question-run';
import { startStageKit, type StageKit } from './answer/stage-kit';
import { selectCandidate, setsAsideWarned, type Selection } from './answer/select-candidate';
import { resultKeyOf, type WorkingCandidate } from './answer/working-candidate';

/**
 * One question, as the papers answer it (each stage in its own file under workflows/answer/):
 *
 *   open → link schema → incorporate notes → judge ─ direct ─→ generate candidates → correct → select → answer
 *                                                  └ complex → decompose → solve the DAG ┘
 *
 * The preset decides which strategy each stage runs (DexterSQL, DecoSearch, or the hybrid default)
 * and ablations switch stages off. Every model call passes the budget gate; a budget that runs
 * out ends the run with its best answer so far, and says which budget it was.
 */
export async function answerQuestion(input: AnswerQuestionInput): Promise<AnswerQuestionResult> {
  const result = await answerQuestionRun(input);
  // A cancelled run's steps failed with the cancellation, and its stages fell back as from any
  // failure: it ends Cancelled (as asked: `decodex ask` interrupted), not as an unanswered question.
  if (CancellationScope.current().consideredCancelled) throw new CancelledFailure(`cancelled: ${result.outcome} so far`);
  // Unanswered shows as Failed in the Web UI's list; the result rides in the failure (core/unanswered-run.ts).
  if (result.outcome !== 'answered') throw unansweredFailure(result);
  return result;
}

async function answerQuestionRun(input: AnswerQuestionInput): Promise<AnswerQuestionResult> {
  const kit = startStageKit(
    input,
    orInvalid(() => resolvePipelineConfig(input.preset, input.ablations, input.pipeline)),
    orInvalid(() => resolveLimits(input.limits)),
  );
  upsertSearchAttributes([{ key: PRESET, value: kit.config.preset }]);
  // The run's state: each stage returns what it produced, and only this router records it here.
  const run = startQuestionRun(input);

  let opened;
  try {
    opened = await openDatabase(kit);
  } catch (err) {
    return finishRun(kit, run, 'database_error', {}, null, { kind: failureType(err) ?? 'database', message: failureMessage(err) });
  }
  run.ctx = { ...run.ctx, ...openedContext(opened) };
  run.knowledge = opened.knowledge;

  const linked = await linkSchema(kit, run.ctx, opened.prepared);
  run.ctx = { ...run.ctx, focus: linked.focus, grounding: linked.grounding };
  run.drafts = linked.drafts;

  run.ctx = { ...run.ctx, ...(await incorporateNotes(kit, run.ctx, opened.prepared?.notes ?? 0)) };

  const decision = await judgeRoute(kit, run.ctx);
  if (decision.judgement) run.judgement = decision.judgement;
  if (decision.route === 'complex') await takeComplexRoute(kit, run, run.judgement ? 'the judger found the question complex' : 'decomposition.always');

  const paths = runnablePaths(kit, { dagAnswered: run.route === 'complex', fewShotExamples: run.knowledge.fewShotExamples });
  const quorum = run.candidates.length ? null : earlyAgreementQuorum(kit, paths.length);
  if (quorum === null) {
    run.candidates.push(...(await generateCandidates(kit, run.ctx, paths)));
    if (!run.candidates.length) run.candidates = draftCandidates(kit, run.drafts);
    run.candidates = await correctCandidates(kit, correctionInputs(run), run.candidates);
  } else {
    run.candidates = await candidatesUntilAgreement(kit, run, paths, quorum);
  }
  if (directPathFailed(kit, run)) {
    const dagAnswer = await takeComplexRoute(kit, run, 'no candidate of the direct path runs: Algorithm 1 falls through to decomposition');
    // The DAG's answer, the last candidate, is corrected (diagnosed) as the ones before it were.
    if (dagAnswer) run.candidates = [...run.candidates.slice(0, -1), ...(await correctCandidates(kit, correctionInputs(run), [dagAnswer]))];
  }

  const selection = await selectCandidate(kit, run.ctx, run.candidates);
  return answer(kit, run, selection);
}

/** A bad preset, ablation, override or limit fails the run at once (retrying cannot fix it). */
function orInvalid<T>(resolve: () => T): T {
  try {
    return resolve();
  } catch (err) {
    throw ApplicationFailure.nonRetryable((err as Error).message, 'InvalidConfiguration');
  }
}

/** What correction reads of the run: the context, the stored rules, whether its candidates are one. */
function correctionInputs(run: QuestionRun): CorrectionInputs {
  return { ctx: run.ctx, correctionRules: run.knowledge.correctionRules, keepAnswerRows: run.candidates.length === 1 };
}

/** Patch marker: runs started before generation could stop on agreement replay without it. */
const STOP_ON_AGREEMENT = 'generation-stop-on-agreement';

/** How many first paths settle the answer when they agree (`generation.stopOnAgreement`), or null: every path writes at once. */
function earlyAgreementQuorum(kit: StageKit, paths: number): number | null {
  if (!kit.config.generation.stopOnAgreement) return null;
  const quorum = agreementQuorum(paths, kit.config.selection.confidenceThreshold);
  return quorum !== null && patched(STOP_ON_AGREEMENT) ? quorum : null;
}

/**
 * The first `quorum` paths write and are corrected; the others only when those do not all run to
 * one result (core/selection/early-agreement.ts says why the answer is the same either way). With
 * no candidate from any path, the preliminary SQLs of linking are the candidates, as without it.
 */
async function candidatesUntilAgreement(kit: StageKit, run: QuestionRun, paths: GenerationPath[], quorum: number): Promise<WorkingCandidate[]> {
  const correct = (candidates: WorkingCandidate[], keepAnswerRows: boolean) =>
    correctCandidates(kit, { ctx: run.ctx, correctionRules: run.knowledge.correctionRules, keepAnswerRows }, candidates);
  const first = await correct(await generateCandidates(kit, run.ctx, paths.slice(0, quorum)), false);
  // With `selection.setAsideWarned`, agreement settles the answer only when a clean candidate is part of it
  // (core/selection/warned-candidates.ts): warned candidates alone may be set aside at selection.
  const clean = (c: WorkingCandidate) => !stillWarned(c.diagnosis?.findings ?? []);
  if (quorumAgrees(first.map(resultKeyOf), quorum) && (!setsAsideWarned(kit) || first.some(clean))) {
    noteUnaskedPaths(kit, paths.slice(quorum), quorum);
    return first;
  }
  const later = await generateCandidates(kit, run.ctx, paths.slice(quorum));
  if (!first.length && !later.length) {
    const drafts = draftCandidates(kit, run.drafts);
    return correct(drafts, drafts.length === 1);
  }
  return [...first, ...(await correct(later, first.length + later.length === 1))];
}

/**
 * The complex route, recorded: it ran (it runs at most once), its DAG, and a judgement overridden
 * when no graph was had. When it answered, its DAG's root SQL is the run's last candidate and the
 * run's route says so; that candidate is returned (null: the direct path answers).
 */
async function takeComplexRoute(kit: StageKit, run: QuestionRun, why: string): Promise<WorkingCandidate | null> {
  run.decomposed = true;
  const outcome = await solveByDecomposition(kit, run.ctx, why);
  if (outcome.dag) run.dag = outcome.dag;
  if (outcome.noGraph && run.judgement) run.judgement = { ...run.judgement, override: `${outcome.noGraph}: the direct path answers` };
  if (!outcome.answer) return null;
  run.route = 'complex';
  run.candidates.push(outcome.answer);
  return outcome.answer;
}

/**
 * Algorithm 1, line 10: a direct path whose SQL does not run falls through to decomposition — at
 * once when correction is off (decosearch), after the reviser's rounds when it is on (hybrid).
 */
function directPathFailed(kit: StageKit, run: QuestionRun): boolean {
  if (!kit.config.decomposition.enabled || run.decomposed || kit.budget.stoppedBy) return false;
  return run.candidates.length > 0 && run.candidates.every((c) => c.diagnosis && !c.diagnosis.execution.ok);
}

/**
 * No generation path wrote a candidate (a budget ended the run first, or every path's model
 * answer was unusable): DexterSQL's preliminary SQLs are the best there is. A question ends
 * unanswered only when not even they exist.
 */
function draftCandidates(kit: StageKit, drafts: Draft[]): WorkingCandidate[] {
  if (drafts.length)
    kit.runner.note('generation', 'fallback', kit.budget.stoppedBy ? 'budget reached before generation' : 'no generation path wrote a candidate', {
      outcome: `the ${drafts.length} preliminary SQLs of schema linking become the candidates`,
    });
  return drafts.map((d) => ({ path: `preliminary-${d.view}`, generatedSql: d.sql, sql: d.sql, corrections: [], diagnosis: null }));
}

/** The run's result: the chosen candidate's rows (see answerRows), or why there is no answer. */
async function answer(kit: StageKit, run: QuestionRun, selection: Selection | null): Promise<AnswerQuestionResult> {
  const stopped: RunError | undefined = kit.budget.stoppedBy;
  if (!selection) {
    if (stopped) return finishRun(kit, run, 'budget_exhausted', {}, null, stopped);
    const failure = firstFailure(kit) ?? { kind: 'llm', message: 'no generation path produced a candidate' };
    // A prompt too large for the model is not a model failure: the question or schema must shrink.
    return finishRun(kit, run, failure.kind === CONTEXT_OVERFLOW ? 'context_overflow' : 'llm_error', {}, null, failure);
  }
  const chosen = run.candidates[selection.report.chosen];
  const executed = await answerRows(kit, chosen);
  kit.runner.stageDone('answer');
  if (!executed.ok) return finishRun(kit, run, 'execution_error', { sql: chosen.sql }, selection, executed.error);
  const { columns, rows, truncated, byteLimit } = executed.result;
  // A budget that ran out still returns the answer it paid for, and says so.
  return finishRun(
    kit,
    run,
    stopped ? 'budget_exhausted' : 'answered',
    { sql: chosen.sql, columns, rows, truncated, ...(byteLimit ? { byteLimit } : {}) },
    selection,
    stopped,
  );
}

/** The failure type of an LLM call whose prompt did not fit the model's context (activities/llm/errors.ts). */
const CONTEXT_OVERFLOW = 'LlmContextOverflow';

/** The first model failure the trace recorded (a context overflow first: it explains the others): why no candidate exists. */
function firstFailure(kit: StageKit): RunError | undefined {
  const failures = kit.runner.trace.filter((e) => !e.ok && e.detail?.error);
  const failed = failures.find((e) => e.detail?.type === CONTEXT_OVERFLOW) ?? failures[0];
  return failed ? { kind: String(failed.detail?.type ?? 'llm'), message: String(failed.detail!.error) } : undefined;
}
