import type { Diagnosis } from '../../core/question/diagnosis';
import type { QuestionContext } from '../../core/question/question-context';
import { formatFinding, type Finding } from '../../core/correction/finding';
import type { CorrectionKind } from '../../core/correction/correction-kinds';
import { failureMessage } from '../kit/step-runner';
import type { CorrectionConfig } from '../../core/pipeline/pipeline-config';
import { sqlDiagnoser, type DiagnoseSql } from './diagnose-sql';
import type { StageKit } from './stage-kit';
import { badness, type DiagnosedCandidate, type WorkingCandidate } from './working-candidate';

const STAGE = 'correction';

/** What correction reads besides the candidates. */
export interface CorrectionInputs {
  ctx: QuestionContext;
  /** How many mined correction rules are stored (none: Steps 3–4 are skipped). */
  correctionRules: number;
  /** The run has one candidate in all: its diagnosis keeps the answer's rows (see sqlDiagnoser). */
  keepAnswerRows: boolean;
}

/** One candidate's correction in progress: the kit, what it reads, and the diagnosis step. */
interface Corrector {
  kit: StageKit;
  ctx: QuestionContext;
  diagnose: DiagnoseSql;
}

/**
 * Whether a rewrite is kept: it must be less bad, or as bad while it runs (then it is a different
 * reading of the question that the checks cannot rank, and the model asked for it). A rewrite
 * that fails as the original did is no better: the original stays.
 */
function improves(next: Diagnosis, current: Diagnosis): boolean {
  return badness(next) < badness(current) || (badness(next) === badness(current) && next.execution.ok);
}

function needsRevision(config: CorrectionConfig, findings: Finding[]): boolean {
  switch (config.reviseOn) {
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
 * Returns the candidates as corrected, diagnosis included, in the order given.
 */
export async function correctCandidates(kit: StageKit, inputs: CorrectionInputs, candidates: WorkingCandidate[]): Promise<WorkingCandidate[]> {
  const corrector: Corrector = { kit, ctx: inputs.ctx, diagnose: sqlDiagnoser(kit, inputs.ctx, inputs.keepAnswerRows) };
  const config = kit.config.correction;
  if (!config.enabled) {
    // The plain-code fixes are no model call: a preset without the reviser may still ground its columns.
    const codeFixes = config.spellingFixes || config.qualifierFixes || config.joinFixes;
    return Promise.all(
      candidates.map(async (c) => {
        const diagnosed = { ...c, diagnosis: await corrector.diagnose(c.sql, c.path, codeFixes ? STAGE : 'selection') };
        return codeFixes ? applyCodeFixes(corrector, diagnosed) : diagnosed;
      }),
    );
  }
  if (config.rules && inputs.correctionRules === 0) {
    kit.runner.note(STAGE, 'correctWithRules', 'rule-guided correction (steps 3–4)', {
      skipped: 'no correction rules are stored (the learning step mines them)',
    });
  }
  const corrected = await Promise.all(candidates.map((c) => correctOne(corrector, c, inputs.correctionRules)));
  kit.runner.stageDone(STAGE);
  return corrected;
}

async function correctOne(corrector: Corrector, generated: WorkingCandidate, correctionRules: number): Promise<DiagnosedCandidate> {
  const { kit, diagnose } = corrector;
  const { maxRevisions, rules } = kit.config.correction;
  let candidate = await applyCodeFixes(corrector, { ...generated, diagnosis: await diagnose(generated.sql, generated.path, STAGE) });
  const attempts = [{ sql: candidate.sql, findings: candidate.diagnosis.findings }];
  for (let round = 1; round <= maxRevisions && needsRevision(kit.config.correction, candidate.diagnosis.findings); round++) {
    if (!kit.budget.takeRepair()) {
      kit.runner.note(STAGE, 'reviseSql', `revise ${candidate.path}`, { skipped: kit.budget.stoppedBy?.message ?? 'refinement budget reached' });
      break;
    }
    const revised = await askRevision(corrector, candidate, attempts, round);
    // Refused by the budget or failed: either way the step's trace event says which, and no later round does better.
    if (revised === 'refused' || revised === 'failed') break;
    const diagnosis = await diagnose(revised.sql, `${candidate.path} revision ${round}`, STAGE);
    attempts.push({ sql: revised.sql, findings: diagnosis.findings });
    if (improves(diagnosis, candidate.diagnosis)) {
      candidate = {
        ...candidate,
        sql: revised.sql,
        diagnosis,
        corrections: [
          ...candidate.corrections,
          `${'revision' satisfies CorrectionKind} ${round}: ${attempts[attempts.length - 2].findings.map(formatFinding).join('; ') || 'no finding'}`,
        ],
      };
    } else {
      kit.runner.note(STAGE, 'reviseSql', `revision ${round} of ${candidate.path} rejected`, {
        outcome: `it is no better: ${diagnosis.findings.map(formatFinding).join('; ')}`,
      });
    }
  }
  return rules && correctionRules > 0 ? applyRules(corrector, candidate) : candidate;
}

/** One revision by the model: its SQL, or why there is none ('refused': the budget; 'failed': the call). */
async function askRevision(
  { kit, ctx }: Corrector,
  candidate: DiagnosedCandidate,
  attempts: { sql: string; findings: Finding[] }[],
  round: number,
): Promise<{ sql: string } | 'refused' | 'failed'> {
  const findings = candidate.diagnosis.findings;
  try {
    const revised = await kit.runner.paidStep(
      {
        stage: STAGE,
        name: 'reviseSql',
        summary: `revise ${candidate.path} (round ${round}): ${findings.map((f) => f.check).join(', ') || 'no finding (every candidate is revised)'}`,
        llmCalls: 1,
      },
      (o) => kit.llm.reviseSql.executeWithOptions(o, [{ ctx, attempts }]),
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
  'unused-join': (c) => c.joinFixes,
  'borrowed-column': (c) => c.joinFixes,
};

/**
 * The findings' sure rewrites (`Finding.fix`), before any model is asked: a rewrite is kept
 * unless it makes the SQL worse; one that fails as before may have fixed one name of two, and
 * the next round fixes the next. Returns the candidate with the fixes kept.
 */
async function applyCodeFixes({ kit, diagnose }: Corrector, diagnosed: DiagnosedCandidate): Promise<DiagnosedCandidate> {
  const allowed = (f: Finding) => f.fix && CODE_FIX_SETTINGS[f.check]?.(kit.config.correction);
  let candidate = diagnosed;
  for (let round = 1; round <= MAX_CODE_FIXES; round++) {
    const fix = candidate.diagnosis.findings.find(allowed)?.fix;
    if (!fix || fix.sql === candidate.sql) return candidate;
    const diagnosis = await diagnose(fix.sql, `${candidate.path} after a code fix (${fix.description})`, STAGE);
    if (badness(diagnosis) > badness(candidate.diagnosis)) {
      kit.runner.note(STAGE, 'codeFix', `code fix of ${candidate.path} rejected`, { outcome: `${fix.description} made it worse` });
      return candidate;
    }
    kit.runner.note(STAGE, 'codeFix', `code fix of ${candidate.path}`, { outcome: `${fix.description}: ${fix.sql}` });
    candidate = {
      ...candidate,
      sql: fix.sql,
      diagnosis,
      corrections: [...candidate.corrections, `${'code fix' satisfies CorrectionKind}: ${fix.description}`],
    };
  }
  return candidate;
}

/** Steps 3–4: the mined rules that apply, as one rewrite; it is kept only when it improves the candidate. */
async function applyRules({ kit, ctx, diagnose }: Corrector, candidate: DiagnosedCandidate): Promise<DiagnosedCandidate> {
  try {
    const corrected = await kit.runner.paidStep(
      { stage: STAGE, name: 'correctWithRules', summary: `rule-guided correction of ${candidate.path}: select rules, apply them`, llmCalls: 2 },
      (o) => kit.llm.correctWithRules.executeWithOptions(o, [{ ctx, sql: candidate.sql, findings: candidate.diagnosis.findings }]),
      (r) => ({
        outcome: r.appliedRules.length
          ? `applied ${r.appliedRules.join(', ')}: ${r.sql}`
          : r.refused
            ? `the rewrite by ${r.refused.rules.join(', ')} refused (${r.refused.reason}): ${r.refused.sql}`
            : r.offeredRules?.length === 0
              ? "no rule's shape difference is possible in this query (no model call)"
              : 'no rule applies',
      }),
    );
    if (!corrected || !corrected.appliedRules.length || corrected.sql === candidate.sql) return candidate;
    const diagnosis = await diagnose(corrected.sql, `${candidate.path} after rules`, STAGE);
    if (!improves(diagnosis, candidate.diagnosis)) {
      kit.runner.note(STAGE, 'correctWithRules', `rules on ${candidate.path} rejected`, {
        outcome: `the rewrite is no better: ${diagnosis.findings.map(formatFinding).join('; ')}`,
      });
      return candidate;
    }
    return {
      ...candidate,
      sql: corrected.sql,
      diagnosis,
      corrections: [...candidate.corrections, `${'rules' satisfies CorrectionKind} ${corrected.appliedRules.join(', ')}`],
    };
  } catch (err) {
    kit.runner.note(STAGE, 'correctWithRules', `rule-guided correction of ${candidate.path} failed`, { outcome: failureMessage(err) });
    return candidate;
  }
}
