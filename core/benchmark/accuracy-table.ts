import type { BenchmarkRecord, CandidateVerdict } from './benchmark-types';
import { wilsonInterval } from './wilson-interval';

/** One configuration's results on the accuracy sample (bench:accuracy). */
export interface AccuracyRow {
  /** The configuration as a report label (`hybrid − correction`). */
  label: string;
  /** The label as a `name: value` key part (`hybrid_minus_correction`). */
  key: string;
  questions: number;
  correct: number;
  ex: number;
  exLow: number;
  exHigh: number;
  byHardness: Record<string, { questions: number; ex: number }>;
  /** Wall time as the questions ran: a question answered from the LLM cache runs in a fraction of it (see cachedCallFraction). */
  secondsPerQuestion: number;
  /**
   * Model time per question, a cached answer counted at what it took when generated (the sum of
   * its calls' times, so above the wall time when calls run side by side); null when some answer
   * was cached without its time.
   */
  modelSecondsPerQuestion: number | null;
  /** Prompt tokens the configuration sends per question, a cached answer counted at what it took when generated. */
  inputTokensPerQuestion: number;
  llmCallsPerQuestion: number;
  /** Model calls answered from the LLM cache over all calls (an ablation replays its preset's shared calls). */
  cachedCallFraction: number;
  /** Prompt tokens the model evaluated over prompt tokens sent (1 without prefix reuse). */
  promptTokensEvaluatedFraction: number | null;
  /**
   * What a CPU pays for, whatever the machine's day (the calls the model answered in this run;
   * a cache hit costs nothing): prompt tokens the model read, tokens it generated, and the
   * sequential forward passes generation took (generated tokens less those taken from verified
   * drafts and less their share of passes batched with other generations: `decodePasses`).
   */
  evaluatedPromptTokensPerQuestion: number;
  generatedTokensPerQuestion: number;
  decodePassesPerQuestion: number;
  /** The same per role (the calls the model answered), so a run says which role costs what. */
  byRole: Record<string, RoleWork>;
  linkingRecall: number | null;
  /** Mean share of the database's columns the focused schema kept (null: no record measured it). */
  keptFraction: number | null;
  /** Questions whose final SQL the database refused or stopped at its timeout. */
  failingSql: number;
  /**
   * Where the wrong answers were lost: questions with at least one right candidate (the ceiling
   * selection can reach), and those of them whose final answer is still wrong (selection, or a
   * later stage, lost a right candidate). The others had no right candidate to choose.
   */
  rightCandidate: number;
  lostAtSelection: number;
  /** Which stage won and lost answers, from the candidates' verdicts (null: no record kept them). */
  stages: StageLosses | null;
  /** Questions that ended without an answer, by outcome. */
  outcomes: Record<string, number>;
}

/**
 * Which stage won and lost answers, over the scored records that kept their candidates' verdicts.
 * A wrong answer is lost at selection when some candidate was right (counted by how the run
 * chose), at correction when none was but a candidate was right as generated, and at generation
 * when no path ever wrote a right SQL. Correction won a question when every right candidate was
 * wrong as generated. Per path: the questions where that path wrote a right candidate. Per kind of
 * correction (revision, code fix, rules): the questions where a candidate it changed turned right, or wrong.
 */
export interface StageLosses {
  questions: number;
  lostAtGeneration: number;
  lostAtCorrection: number;
  wonAtCorrection: number;
  lostAtSelectionBy: Record<string, number>;
  rightByPath: Record<string, number>;
  turnedRightBy: Record<string, number>;
  turnedWrongBy: Record<string, number>;
}

function stageLosses(scored: BenchmarkRecord[]): StageLosses | null {
  const kept = scored.filter((r) => r.candidates);
  if (!kept.length) return null;
  const losses: StageLosses = {
    questions: kept.length,
    lostAtGeneration: 0,
    lostAtCorrection: 0,
    wonAtCorrection: 0,
    lostAtSelectionBy: {},
    rightByPath: {},
    turnedRightBy: {},
    turnedWrongBy: {},
  };
  for (const r of kept) {
    const candidates = r.candidates!;
    const right = candidates.filter((c) => c.verdict === 'correct');
    for (const path of new Set(right.map((c) => c.path))) losses.rightByPath[path] = (losses.rightByPath[path] ?? 0) + 1;
    if (right.length && right.every((c) => c.generatedVerdict !== undefined && c.generatedVerdict !== 'correct')) losses.wonAtCorrection++;
    countOnce(
      losses.turnedRightBy,
      candidates.filter((c) => c.verdict === 'correct' && c.generatedVerdict && c.generatedVerdict !== 'correct'),
    );
    countOnce(
      losses.turnedWrongBy,
      candidates.filter((c) => c.verdict !== 'correct' && c.generatedVerdict === 'correct'),
    );
    if (r.verdict === 'correct') continue;
    if (right.length) {
      const by = r.selection ?? 'unknown';
      losses.lostAtSelectionBy[by] = (losses.lostAtSelectionBy[by] ?? 0) + 1;
    } else if (candidates.some((c) => c.generatedVerdict === 'correct')) losses.lostAtCorrection++;
    else losses.lostAtGeneration++;
  }
  return losses;
}

/** Adds one to each kind of correction that changed any of these candidates (one question, counted once a kind). */
function countOnce(counts: Record<string, number>, changed: CandidateVerdict[]): void {
  for (const kind of new Set(changed.flatMap((c) => c.changedBy ?? []))) counts[kind] = (counts[kind] ?? 0) + 1;
}

/** What one role cost per question: its calls, the prompt tokens the model read for it, the forward passes its answers took. */
export interface RoleWork {
  callsPerQuestion: number;
  evaluatedPromptTokensPerQuestion: number;
  decodePassesPerQuestion: number;
}

/** Each role's work per question over the scored records (a role a question did not call counts zero there). */
function roleWork(scored: BenchmarkRecord[]): Record<string, RoleWork> {
  const work: Record<string, RoleWork> = {};
  for (const r of scored)
    for (const [role, u] of Object.entries(r.usage.byRole)) {
      const w = (work[role] ??= { callsPerQuestion: 0, evaluatedPromptTokensPerQuestion: 0, decodePassesPerQuestion: 0 });
      w.callsPerQuestion += u.calls / scored.length;
      w.evaluatedPromptTokensPerQuestion += (u.promptTokens - (u.reusedPromptTokens ?? 0)) / scored.length;
      w.decodePassesPerQuestion += decodePasses(u) / scored.length;
    }
  return work;
}

/** A report label as a key: letters, digits and underscores. */
export function labelKey(label: string): string {
  return label
    .replace(/\s*−\s*/g, '_minus_')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_|_$/g, '');
}

const HARDNESS_ORDER = ['easy', 'medium', 'hard', 'extra', 'simple', 'moderate', 'challenging'];
/** The forward passes a usage's generation took: one per generated token, less drafted tokens and the batched share. */
export function decodePasses(u: { completionTokens: number; draftedTokens?: number; batchedTokens?: number }): number {
  return u.completionTokens - (u.draftedTokens ?? 0) - (u.batchedTokens ?? 0);
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);

/** The row of one configuration, from its benchmark records (questions not executable are left out). */
export function accuracyRow(label: string, records: BenchmarkRecord[]): AccuracyRow {
  const scored = records.filter((r) => r.verdict !== 'not_executable');
  const correct = scored.filter((r) => r.verdict === 'correct').length;
  const { low, high } = wilsonInterval(correct, scored.length);
  const byHardness: AccuracyRow['byHardness'] = {};
  for (const level of [...new Set(scored.map((r) => r.difficulty ?? 'unknown'))]) {
    const inLevel = scored.filter((r) => (r.difficulty ?? 'unknown') === level);
    byHardness[level] = { questions: inLevel.length, ex: inLevel.filter((r) => r.verdict === 'correct').length / inLevel.length };
  }
  const sent = scored.reduce((n, r) => n + r.usage.promptTokens, 0);
  const cachedTokens = scored.reduce((n, r) => n + (r.usage.cachedPromptTokens ?? 0), 0);
  const calls = scored.reduce((n, r) => n + r.usage.llmCalls, 0);
  const hits = scored.reduce((n, r) => n + r.usage.cacheHits, 0);
  const reused = scored.reduce((n, r) => n + (r.usage.reusedPromptTokens ?? 0), 0);
  const linked = scored.flatMap((r) => (r.linking ? [r.linking.recall] : []));
  // Records stored before the kept fraction was measured have none: the mean is over those that do.
  const kept = scored.flatMap((r) => (r.linking?.keptFraction === undefined ? [] : [r.linking.keptFraction]));
  const timed = scored.every((r) => r.usage.modelMs !== undefined && !r.usage.untimedHits);
  const outcomes: Record<string, number> = {};
  for (const r of scored) if (r.outcome !== 'answered') outcomes[r.outcome] = (outcomes[r.outcome] ?? 0) + 1;
  return {
    label,
    key: labelKey(label),
    questions: scored.length,
    correct,
    ex: scored.length ? correct / scored.length : 0,
    exLow: low,
    exHigh: high,
    byHardness,
    secondsPerQuestion: mean(scored.flatMap((r) => (r.latencyMs === null ? [] : [r.latencyMs / 1000]))),
    modelSecondsPerQuestion: timed && scored.length ? mean(scored.map((r) => (r.usage.modelMs ?? 0) / 1000)) : null,
    inputTokensPerQuestion: scored.length ? (sent + cachedTokens) / scored.length : 0,
    llmCallsPerQuestion: mean(scored.map((r) => r.usage.llmCalls)),
    cachedCallFraction: calls ? hits / calls : 0,
    promptTokensEvaluatedFraction: sent ? (sent - reused) / sent : null,
    evaluatedPromptTokensPerQuestion: mean(scored.map((r) => r.usage.promptTokens - (r.usage.reusedPromptTokens ?? 0))),
    generatedTokensPerQuestion: mean(scored.map((r) => r.usage.completionTokens)),
    decodePassesPerQuestion: mean(scored.map((r) => decodePasses(r.usage))),
    byRole: roleWork(scored),
    linkingRecall: linked.length ? mean(linked) : null,
    keptFraction: kept.length ? mean(kept) : null,
    failingSql: scored.filter((r) => r.verdict === 'pred_error' || r.verdict === 'pred_timeout').length,
    rightCandidate: scored.filter((r) => r.upperBoundCorrect).length,
    lostAtSelection: scored.filter((r) => r.upperBoundCorrect && r.verdict !== 'correct').length,
    stages: stageLosses(scored),
    outcomes,
  };
}

const f3 = (x: number) => x.toFixed(3);

/** The `name: value` lines of one row, as bench:accuracy prints them. */
export function accuracyLines(row: AccuracyRow): string[] {
  const k = row.key;
  return [
    `questions_${k}: ${row.questions}`,
    `ex_${k}: ${f3(row.ex)}`,
    `ex_${k}_ci95: ${f3(row.exLow)}-${f3(row.exHigh)}`,
    ...sortedHardness(row).map(([level, h]) => `ex_${k}_${level}: ${f3(h.ex)}`),
    `seconds_per_question_${k}: ${row.secondsPerQuestion.toFixed(1)}`,
    `model_seconds_per_question_${k}: ${row.modelSecondsPerQuestion === null ? 'n/a' : row.modelSecondsPerQuestion.toFixed(1)}`,
    `input_tokens_per_question_${k}: ${Math.round(row.inputTokensPerQuestion)}`,
    `llm_calls_per_question_${k}: ${row.llmCallsPerQuestion.toFixed(1)}`,
    ...modelWorkLines(row),
    `cached_call_fraction_${k}: ${f3(row.cachedCallFraction)}`,
    `prompt_tokens_evaluated_fraction_${k}: ${row.promptTokensEvaluatedFraction === null ? 'n/a' : f3(row.promptTokensEvaluatedFraction)}`,
    `linking_recall_${k}: ${row.linkingRecall === null ? 'n/a' : f3(row.linkingRecall)}`,
    `kept_fraction_${k}: ${row.keptFraction === null ? 'n/a' : f3(row.keptFraction)}`,
    `failing_sql_${k}: ${row.failingSql}`,
    `right_candidate_${k}: ${row.rightCandidate}`,
    `lost_at_selection_${k}: ${row.lostAtSelection}`,
    ...stageLines(row),
  ];
}

/** Where answers were won and lost, when the records kept their candidates' verdicts. */
function stageLines(row: AccuracyRow): string[] {
  const k = row.key;
  const s = row.stages;
  if (!s) return [];
  const sorted = (counts: Record<string, number>) => Object.entries(counts).sort(([a], [b]) => (a < b ? -1 : 1));
  return [
    `candidates_recorded_${k}: ${s.questions}`,
    `lost_at_generation_${k}: ${s.lostAtGeneration}`,
    `lost_at_correction_${k}: ${s.lostAtCorrection}`,
    `won_at_correction_${k}: ${s.wonAtCorrection}`,
    ...sorted(s.lostAtSelectionBy).map(([method, n]) => `lost_at_selection_${k}_by_${labelKey(method)}: ${n}`),
    ...sorted(s.rightByPath).map(([path, n]) => `right_candidate_${k}_${labelKey(path)}: ${n}`),
    ...sorted(s.turnedRightBy).map(([kind, n]) => `turned_right_${k}_by_${labelKey(kind)}: ${n}`),
    ...sorted(s.turnedWrongBy).map(([kind, n]) => `turned_wrong_${k}_by_${labelKey(kind)}: ${n}`),
  ];
}

/** What the model did per question whatever the machine's speed: prompt tokens it read, tokens it wrote, forward passes writing took. */
function modelWorkLines(row: AccuracyRow): string[] {
  const k = row.key;
  return [
    `evaluated_prompt_tokens_per_question_${k}: ${Math.round(row.evaluatedPromptTokensPerQuestion)}`,
    `generated_tokens_per_question_${k}: ${Math.round(row.generatedTokensPerQuestion)}`,
    `decode_passes_per_question_${k}: ${Math.round(row.decodePassesPerQuestion)}`,
  ];
}

/**
 * The `name: value` lines of one row as bench:speed prints them: what a question costs (the model's
 * work, its calls, the wall time) and whether the answers stayed right; the cached-call fraction
 * shows that the run replayed nothing (a call repeated within the run is all it may hold).
 */
export function speedLines(row: AccuracyRow): string[] {
  const k = row.key;
  return [
    `questions_${k}: ${row.questions}`,
    `ex_${k}: ${f3(row.ex)}`,
    ...modelWorkLines(row),
    `model_calls_per_question_${k}: ${row.llmCallsPerQuestion.toFixed(1)}`,
    `seconds_per_question_${k}: ${row.secondsPerQuestion.toFixed(1)}`,
    `cached_call_fraction_${k}: ${f3(row.cachedCallFraction)}`,
    ...Object.entries(row.byRole)
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .flatMap(([role, w]) => [
        `model_calls_per_question_${k}_${labelKey(role)}: ${w.callsPerQuestion.toFixed(1)}`,
        `evaluated_prompt_tokens_per_question_${k}_${labelKey(role)}: ${Math.round(w.evaluatedPromptTokensPerQuestion)}`,
        `decode_passes_per_question_${k}_${labelKey(role)}: ${Math.round(w.decodePassesPerQuestion)}`,
      ]),
  ];
}

function sortedHardness(row: AccuracyRow): [string, { questions: number; ex: number }][] {
  const rank = (level: string) => (HARDNESS_ORDER.includes(level) ? HARDNESS_ORDER.indexOf(level) : HARDNESS_ORDER.length);
  return Object.entries(row.byHardness).sort(([a], [b]) => rank(a) - rank(b) || (a < b ? -1 : 1));
}

/** The markdown table of every row, with the sample it was measured on. */
export function accuracyMarkdown(rows: AccuracyRow[], about: string): string {
  const levels = [...new Set(rows.flatMap((r) => sortedHardness(r).map(([level]) => level)))];
  const header = [
    'configuration',
    'n',
    'EX',
    '95% CI',
    ...levels,
    's/question',
    'model s/q',
    'input tokens/q',
    'calls/q',
    'cached calls',
    'evaluated fraction',
    'linking recall',
    'failing SQL',
    'right candidate',
    'lost at selection',
    'unanswered',
  ];
  const lines = [`# Accuracy\n\n${about}\n`, `| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`];
  for (const r of rows) {
    const cells = [
      r.label,
      String(r.questions),
      f3(r.ex),
      `${f3(r.exLow)}–${f3(r.exHigh)}`,
      ...levels.map((level) => (r.byHardness[level] ? `${f3(r.byHardness[level].ex)} (${r.byHardness[level].questions})` : '')),
      r.secondsPerQuestion.toFixed(1),
      r.modelSecondsPerQuestion === null ? 'n/a' : r.modelSecondsPerQuestion.toFixed(1),
      String(Math.round(r.inputTokensPerQuestion)),
      r.llmCallsPerQuestion.toFixed(1),
      f3(r.cachedCallFraction),
      r.promptTokensEvaluatedFraction === null ? 'n/a' : f3(r.promptTokensEvaluatedFraction),
      r.linkingRecall === null ? 'n/a' : f3(r.linkingRecall),
      String(r.failingSql),
      String(r.rightCandidate),
      String(r.lostAtSelection),
      Object.entries(r.outcomes)
        .map(([o, n]) => `${o} ${n}`)
        .join(', ') || '0',
    ];
    lines.push(`| ${cells.join(' | ')} |`);
  }
  return lines.join('\n') + '\n';
}
