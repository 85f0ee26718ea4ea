import { patched } from '@temporalio/workflow';
import type { SelectionReport } from '../../core/answer-question-types';
import { clusterCandidates, tournamentWinner, type CandidateCluster } from '../../core/selection/cluster-candidates';
import { warnedToSetAside } from '../../core/selection/warned-candidates';
import type { QuestionContext } from '../../core/question/question-context';
import type { StageKit } from './stage-kit';
import { resultKeyOf, type WorkingCandidate } from './working-candidate';

const STAGE = 'selection';

export interface Selection {
  report: SelectionReport;
  clusters: CandidateCluster[];
}

/**
 * DexterSQL §3.4.2: cluster the corrected candidates by identical results; a top cluster at or
 * above the confidence threshold wins outright; otherwise the representatives of the top
 * clusters play a pairwise tournament (one LLM call per pair), and pairwise wins plus
 * confidence decide. With selection off (DecoSearch), the first candidate that executes wins.
 * With `selection.setAsideWarned` (decodex's), a candidate still warned by a question check after
 * correction does not vote while a clean candidate runs to another result.
 * Returns null when there is no candidate at all.
 */
export async function selectCandidate(kit: StageKit, ctx: QuestionContext, candidates: WorkingCandidate[]): Promise<Selection | null> {
  if (!candidates.length) return null;
  const setAside = setAsideWarned(kit, candidates);
  const clusters = clusterCandidates(candidates.map((c, index) => ({ index, resultKey: resultKeyOf(c) })).filter((c) => !setAside.includes(c.index)));
  const confidenceOf = (i: number) => clusters.find((c) => c.members.includes(i))?.confidence ?? 0;
  const report = (method: SelectionReport['method'], chosen: number, extra: Partial<SelectionReport> = {}): Selection => ({
    report: { method, chosen, confidence: confidenceOf(chosen), ...extra },
    clusters,
  });

  if (!clusters.length) return report('none-executable', 0);
  if (candidates.length === 1) return report('single', 0);
  if (!kit.config.selection.enabled)
    return report(
      'first-executable',
      candidates.findIndex((c) => c.diagnosis?.execution.ok),
    );

  if (setAside.length)
    kit.runner.note(STAGE, 'setAsideWarned', 'candidates still warned by question checks do not vote', {
      outcome: `${setAside.map((i) => candidates[i].path).join(', ')} set aside: another candidate runs to another result without a warning`,
    });
  const { confidenceThreshold, tournamentSize } = kit.config.selection;
  const top = clusters[0];
  if (top.confidence >= confidenceThreshold || clusters.length === 1) {
    kit.runner.note(STAGE, 'clusterCandidates', 'cluster candidates by result', {
      outcome: `top cluster holds ${top.members.length} of ${candidates.length} (confidence ${top.confidence.toFixed(2)} ≥ ${confidenceThreshold}): no tournament`,
    });
    kit.runner.stageDone(STAGE);
    return report('confidence', top.members[0]);
  }

  const entrants = clusters.slice(0, tournamentSize);
  kit.runner.note(STAGE, 'clusterCandidates', 'cluster candidates by result', {
    outcome: `${clusters.length} clusters, top confidence ${top.confidence.toFixed(2)} < ${confidenceThreshold}: tournament of ${entrants.length}`,
  });
  const pairs: [number, number][] = [];
  for (let a = 0; a < entrants.length; a++) for (let b = a + 1; b < entrants.length; b++) pairs.push([a, b]);
  const entrant = (i: number) => {
    const c = candidates[entrants[i].members[0]];
    const execution = c.diagnosis!.execution;
    return { sql: c.sql, confidence: entrants[i].confidence, preview: execution.ok ? execution.preview : [], rowCount: execution.ok ? execution.rowCount : 0 };
  };
  const games = await Promise.all(
    pairs.map(([a, b]) =>
      kit.runner
        .paidStep(
          {
            stage: STAGE,
            name: 'compareCandidates',
            summary: `tournament: ${candidates[entrants[a].members[0]].path} vs ${candidates[entrants[b].members[0]].path}`,
            llmCalls: 1,
          },
          (o) => kit.llm.compareCandidates.executeWithOptions(o, [{ ctx, a: entrant(a), b: entrant(b) }]),
          (r) => ({ outcome: `${r.winner === 'A' ? candidates[entrants[a].members[0]].path : candidates[entrants[b].members[0]].path} wins: ${r.reasoning}` }),
        )
        .then((r) => (r ? { a, b, winner: r.winner === 'A' ? a : b } : null))
        .catch(() => null),
    ),
  );
  const played = games.filter((g) => g !== null);
  kit.runner.stageDone(STAGE);
  if (!played.length) return report(kit.budget.stoppedBy ? 'budget' : 'confidence', top.members[0]);
  const outcome = tournamentWinner(
    entrants.map((e) => e.confidence),
    played,
  );
  const chosen = entrants[outcome.winner].members[0];
  return report('tournament', chosen, { scores: outcome.scores.map((score, i) => ({ candidate: entrants[i].members[0], score })) });
}

/** Patch marker: runs started before `selection.setAsideWarned` existed replay without it. */
const SET_ASIDE_WARNED = 'selection-set-aside-warned';

/** Whether this run sets warned candidates aside (`selection.setAsideWarned`, in runs started since it exists). */
export function setsAsideWarned(kit: StageKit): boolean {
  return kit.config.selection.setAsideWarned && patched(SET_ASIDE_WARNED);
}

/** The indices of the candidates that do not vote (core/selection/warned-candidates.ts), or none with the setting off. */
function setAsideWarned(kit: StageKit, candidates: WorkingCandidate[]): number[] {
  if (!kit.config.selection.enabled || !setsAsideWarned(kit)) return [];
  return warnedToSetAside(candidates.map((c) => ({ resultKey: resultKeyOf(c), findings: c.diagnosis?.findings ?? [] })));
}
