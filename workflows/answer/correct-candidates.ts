import type { Diagnosis } from '../../core/question/diagnosis';
import { formatFinding, type Finding } from '../../core/correction/finding';
import { failureMessage } from '../kit/step-runner';
import type { CorrectionConfig } from '../../core/pipeline/pipeline-config';
import type { QuestionRun } from './question-run';
import { badness, type WorkingCandidate } from './working-candidate';

const STAGE = 'correction';

/** Rows read per candidate to tell results apart; more are keyed as "cut" (never equal to a complete result). */
export const DIAGNOSIS_MAX_ROWS = 10_000;

export function diagnose(run: QuestionRun, candidate: WorkingCandidate, label: string, stage = STAGE): Promise<Diagnosis> {
  const ctx = run.ctx;
  const { maxRows, maxCellBytes, maxResultBytes } = run.limits;
  // A lone candidate will be the answer if it runs: its diagnosis keeps the rows, so the SQL runs
  // once. With several, only the chosen one's rows are wanted, and history would hold them all.
  const answer = run.candidates.length === 1 ? { answer: { maxRows, maxCellBytes, maxResultBytes } } : {};
  return run.runner.step(
    { stage, name: 'diagnoseSql', summary: `diagnose ${label}: parse, run read-only, checks` },
    (o) =>
      run.online.diagnoseSql.executeWithOptions(o, [
        {
          ctx,
          sql: candidate.sql,
          timeoutMs: run.limits.sqlTimeoutMs,
          maxRows: DIAGNOSIS_MAX_ROWS,
          maxCellBytes,
          ...answer,
          ...(run.config.correction.questionChecks ? { questionChecks: true } : {}),
        },
      ]),
    (d) => ({
      outcome: `${d.execution.ok ? `${d.execution.rowCount} rows` : `error: ${d.execution.error}`}${d.findings.length ? `; ${d.findings.map((f) => f.check).join(', ')}` : '; no findings'}`,
    }),
  );
}

/**
 * Whether a rewrite is kept: it must be less bad, or as bad while it runs (then it is a different
 * reading of the question that the checks cannot rank, and the model asked for it). A rewrite
 * that fails as the original did is no better: the original stays.
 */
function improves(next: Diagnosis, current: Diagnosis): boolean {
  return badness(next) < badness(current) || (badness(next) === badness(current) && next.execution.ok);
}

function needsRevision(run: QuestionRun, findings: Finding[]): boolean {
  switch (run.config.correction.reviseOn) {
    case 'always':
      return true;
    case 'all-findings':
      return findings.length > 0;
    case 'errors':
      return findings.some((f) => f.severity === 'error');
  }
}

/**
 * Correction of every candidate (DexterSQL §3.4.1; DecoSearch's refiner, C.4), in parallel:
 * Step 1 a diagnostic report; Step 2 an LLM revision (of every candidate as DexterSQL publishes
 * it, or only when a check fires: `reviseOn`), with the whole attempt history, at most `maxRevisions` rounds, each one refinement of the run's budget — a revision
 * that is no better is rejected and recorded; Steps 3–4 rule-guided rewriting when mined
 * rules exist. Candidates are diagnosed even with correction off, since selection needs results,
 * and the plain-code fixes (spelling, qualifier) run whenever they are on, reviser or not.
 */
export async function correctCandidates(run: QuestionRun, candidates: WorkingCandidate[] = run.candidates): Promise<void> {
  if (!run.config.correction.enabled) {
    // The plain-code fixes are no model call: a preset without the reviser may still ground its columns.
    const codeFixes = run.config.correction.spellingFixes || run.config.correction.qualifierFixes;
    await Promise.all(
      candidates.map(async (c) => {
        c.diagnosis = await diagnose(run, c, c.path, codeFixes ? STAGE : 'selection');
        if (codeFixes) await applyCodeFixes(run, c);
      }),
    );
    return;
  }
  if (run.config.correction.rules && run.knowledge.correctionRules === 0) {
    run.runner.note(STAGE, 'correctWithRules', 'rule-guided correction (steps 3–4)', {
      skipped: 'no correction rules are stored (the learning step mines them)',
    });
  }
  await Promise.all(candidates.map((c) => correctOne(run, c)));
  run.runner.stageDone(STAGE);
}

async function correctOne(run: QuestionRun, candidate: WorkingCandidate): Promise<void> {
  const { maxRevisions, rules } = run.config.correction;
  candidate.diagnosis = await diagnose(run, candidate, candidate.path);
  await applyCodeFixes(run, candidate);
  const attempts = [{ sql: candidate.sql, findings: candidate.diagnosis.findings }];
  for (let round = 1; round <= maxRevisions && needsRevision(run, candidate.diagnosis.findings); round++) {
    if (!run.budget.takeRepair()) {
      run.runner.note(STAGE, 'reviseSql', `revise ${candidate.path}`, { skipped: run.budget.stoppedBy?.message ?? 'refinement budget reached' });
      break;
    }
    const revised = await askRevision(run, candidate, attempts, round);
    // Refused by the budget or failed: either way the step's trace event says which, and no later round does better.
    if (revised === 'refused' || revised === 'failed') break;
    const trial: WorkingCandidate = { ...candidate, sql: revised.sql };
    const diagnosis = await diagnose(run, trial, `${candidate.path} revision ${round}`);
    attempts.push({ sql: revised.sql, findings: diagnosis.findings });
    if (improves(diagnosis, candidate.diagnosis)) {
      Object.assign(candidate, {
        sql: revised.sql,
        diagnosis,
        corrections: [...candidate.corrections, `revision ${round}: ${attempts[attempts.length - 2].findings.map(formatFinding).join('; ') || 'no finding'}`],
      });
    } else {
      run.runner.note(STAGE, 'reviseSql', `revision ${round} of ${candidate.path} rejected`, {
        outcome: `it is no better: ${diagnosis.findings.map(formatFinding).join('; ')}`,
      });
    }
  }
  if (rules && run.knowledge.correctionRules > 0) await applyRules(run, candidate);
}

/** One revision by the model: its SQL, or why there is none ('refused': the budget; 'failed': the call). */
async function askRevision(
  run: QuestionRun,
  candidate: WorkingCandidate,
  attempts: { sql: string; findings: Finding[] }[],
  round: number,
): Promise<{ sql: string } | 'refused' | 'failed'> {
  const ctx = run.ctx;
  const findings = candidate.diagnosis?.findings ?? [];
  try {
    const revised = await run.runner.paidStep(
      {
        stage: STAGE,
        name: 'reviseSql',
        summary: `revise ${candidate.path} (round ${round}): ${findings.map((f) => f.check).join(', ') || 'no finding (every candidate is revised)'}`,
        llmCalls: 1,
      },
      (o) => run.llm.reviseSql.executeWithOptions(o, [{ ctx, attempts }]),
      (r) => ({ outcome: r.sql, detail: { reasoning: r.reasoning } }),
    );
    return revised ?? 'refused';
  } catch {
    return 'failed';
  }
}

/** Rewrites plain code is sure of, one after another (each wrong name is one round). */
const MAX_CODE_FIXES = 3;

/** Which setting lets the fix of which check be applied (every check reports; only these rewrite). */
const CODE_FIX_SETTINGS: Record<string, (c: CorrectionConfig) => boolean> = {
  'unknown-name': (c) => c.spellingFixes,
  'column-of-other-table': (c) => c.qualifierFixes,
};

/**
 * The findings' sure rewrites (`Finding.fix`), before any model is asked: a rewrite is kept
 * unless it makes the SQL worse; one that fails as before may have fixed one name of two, and
 * the next round fixes the next.
 */
async function applyCodeFixes(run: QuestionRun, candidate: WorkingCandidate): Promise<void> {
  const allowed = (f: Finding) => f.fix && CODE_FIX_SETTINGS[f.check]?.(run.config.correction);
  for (let round = 1; round <= MAX_CODE_FIXES && candidate.diagnosis; round++) {
    const fix = candidate.diagnosis.findings.find(allowed)?.fix;
    if (!fix || fix.sql === candidate.sql) return;
    const diagnosis = await diagnose(run, { ...candidate, sql: fix.sql }, `${candidate.path} after a code fix (${fix.description})`);
    if (badness(diagnosis) > badness(candidate.diagnosis)) {
      run.runner.note(STAGE, 'codeFix', `code fix of ${candidate.path} rejected`, { outcome: `${fix.description} made it worse` });
      return;
    }
    run.runner.note(STAGE, 'codeFix', `code fix of ${candidate.path}`, { outcome: `${fix.description}: ${fix.sql}` });
    Object.assign(candidate, { sql: fix.sql, diagnosis, corrections: [...candidate.corrections, `code fix: ${fix.description}`] });
  }
}

async function applyRules(run: QuestionRun, candidate: WorkingCandidate): Promise<void> {
  const ctx = run.ctx;
  try {
    const corrected = await run.runner.paidStep(
      { stage: STAGE, name: 'correctWithRules', summary: `rule-guided correction of ${candidate.path}: select rules, apply them`, llmCalls: 2 },
      (o) => run.llm.correctWithRules.executeWithOptions(o, [{ ctx, sql: candidate.sql, findings: candidate.diagnosis?.findings ?? [] }]),
      (r) => ({ outcome: r.appliedRules.length ? `applied ${r.appliedRules.join(', ')}: ${r.sql}` : 'no rule applies' }),
    );
    if (!corrected || !corrected.appliedRules.length || corrected.sql === candidate.sql) return;
    const diagnosis = await diagnose(run, { ...candidate, sql: corrected.sql }, `${candidate.path} after rules`);
    if (candidate.diagnosis && !improves(diagnosis, candidate.diagnosis)) {
      run.runner.note(STAGE, 'correctWithRules', `rules on ${candidate.path} rejected`, {
        outcome: `the rewrite is no better: ${diagnosis.findings.map(formatFinding).join('; ')}`,
      });
      return;
    }
    Object.assign(candidate, { sql: corrected.sql, diagnosis, corrections: [...candidate.corrections, `rules ${corrected.appliedRules.join(', ')}`] });
  } catch (err) {
    run.runner.note(STAGE, 'correctWithRules', `rule-guided correction of ${candidate.path} failed`, { outcome: failureMessage(err) });
  }
}
