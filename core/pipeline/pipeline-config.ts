/**
 * What a question run does, stage by stage (DexterSQL §3.2–3.4, DecoSearch §3.3–3.4), with each
 * setting's default and why. A run is described by a preset plus ablations (and, for experiments,
 * overrides); the resolved configuration travels in the workflow input and the trace, so a
 * report's label is only what really ran.
 */
import { PRELIMINARY_VIEWS, PRELIMINARY_VIEW_NAMES, type PreliminaryView } from '../linking/preliminary-views';

export type LinkingStrategy = 'dextersql' | 'decosearch' | 'full-schema';
export type GenerationPath = 'direct' | 'dependency-tree' | 'few-shot' | 'divide-and-conquer';
export const GENERATION_PATHS: GenerationPath[] = ['direct', 'dependency-tree', 'few-shot', 'divide-and-conquer'];

export interface LinkingConfig {
  /**
   * dextersql: retrieval from the profile and value indices, then three preliminary SQLs whose
   * columns are added (§3.2); decosearch: keywords → tables → columns by the LLM (§3.3);
   * full-schema: no linking (the "no selector" ablation).
   */
  strategy: LinkingStrategy;
  /**
   * DexterSQL Step 2: one preliminary SQL over each of these views (the paper's three: the
   * retrieved focus, the whole schema, the schema with profiles; or `profile-lines`, the third
   * with one line per profile), whose columns join the focus. Each view is a prompt the model
   * reads (the profile views after the whole schema's DDL, which a sequence holding it shares):
   * fewer or smaller views, less reading. Empty, the retrieved columns are the focused schema (the
   * `preliminary-sql` ablation).
   */
  preliminaryViews: PreliminaryView[];
  /**
   * A database never prepared has no indices. 'prepare' runs `prepareDatabase` first without a
   * model (profiles and indices; notes need `decodex prepare`), so the first question pays
   * seconds once; 'full-schema' answers over the whole schema instead.
   */
  whenUnprepared: 'prepare' | 'full-schema';
  /**
   * The `decosearch` selector's columns completed as CHESS completes a pruning, which the paper
   * says its selector follows: columns whose names or stored values match the question and its
   * keywords, and the key columns joining the selected tables (core/linking/complete-selection.ts).
   * Plain code, no model call. Only the `decosearch` strategy selects columns; the others ignore it.
   */
  completeSelection: boolean;
  /**
   * Values of the database the question mentions, matched by the value index (DexterSQL §3.2
   * Step 1's grounding: `singer.Country: 'France'`), are listed in every prompt after linking. The
   * dextersql strategy finds them with its retrieval; the others run that retrieval for its values
   * alone (their focus stays their own). Needs a prepared database; without one there are none.
   */
  matchValues: boolean;
}

export interface NotesConfig {
  /** DexterSQL's note incorporator (§3.3.1): relevant disambiguation notes go into the prompts. */
  enabled: boolean;
}

export interface JudgingConfig {
  /**
   * DecoSearch's judger (C.1). Off, no question is judged: the direct path answers (and, with
   * decomposition on, a direct SQL that does not run still falls through to it, Algorithm 1 line
   * 10). DexterSQL has none. The `judger` ablation is the paper's other reading (every question decomposed).
   */
  enabled: boolean;
}

export interface DecompositionConfig {
  /**
   * DecoSearch's complex route (§3.5–3.7): decompose into a sub-question DAG, solve it in
   * topological waves, refine the topology when a node fails. Off, complex verdicts take the
   * direct path.
   */
  enabled: boolean;
  /** Every question takes the complex route without asking the judger (experiments, building the knowledge base). */
  always: boolean;
  /** Topology refinements allowed per question (the paper's B = 3); they count against the run's refinement budget. 0: no topology refinement. */
  maxRefinements: number;
  /**
   * Which node results call the topology refiner. 'errors': SQL that does not run (§3.7's trigger,
   * Algorithm 1 line 22); an empty or all-NULL result is built on as it is. 'errors-and-empty': also
   * a result of no rows or only NULLs (a decodex addition: such a node usually misread its sub-question).
   */
  refineOn: 'errors' | 'errors-and-empty';
  /**
   * After a rejected proposal (the same plan, a cycle, no valid graph), ask the refiner again, told
   * why, while B lasts. Off (Algorithm 1 lines 23–29): the failing node's result is accepted at once
   * and the DAG goes on.
   */
  retryRejected: boolean;
  /** An upstream result of at most this many rows is inlined as a value list; larger ones become a relation n<k> (paper: θ = 100). */
  inlineRows: number;
  /**
   * Past decompositions shown to the decomposer from the knowledge base, found by the meaning of
   * the question (MiniLM, as the paper's all-MiniLM-L6-v2; paper: k = 3); zero-shot when none are stored.
   */
  examples: number;
  /**
   * The decomposer's sampling temperature (appendix B: 0.1, "slightly varied but still constrained
   * decomposition strategies"). It replaces the decomposer role's configured temperature for this call.
   */
  temperature: number;
  /**
   * When the knowledge base gives no example, show the decomposer one worked plan on a made-up
   * database instead of none (not in the paper). Off in every preset; the knowledge base's builder
   * turns it on so that a small model's first plans are in words and can be stored.
   */
  seedPlan: boolean;
}

export interface GenerationConfig {
  /**
   * The paths that each write one candidate. DecoSearch: the zero-temperature direct path (C.3).
   * DexterSQL: dependency tree, few-shot, divide-and-conquer (few-shot is skipped when no
   * few-shot index exists, and the trace says so).
   */
  paths: GenerationPath[];
  /**
   * The first paths write first, as many as make a quorum (more than half of the paths, and at
   * least the selection's confidence threshold of them: two of three at 0.6); when their corrected
   * candidates all run to the same result, the other paths are not asked, since nothing they write
   * could change the answer: that result's cluster wins selection either way, with the first path's
   * SQL (core/selection/early-agreement.ts). Off, every path writes at once, as the papers do.
   */
  stopOnAgreement: boolean;
}

export interface CorrectionConfig {
  /**
   * Every candidate is diagnosed (parse, execution, suspicious results) and repaired (§3.4.1). Off,
   * candidates are only diagnosed (selection and Algorithm 1's fall-through need their results) and
   * given the plain-code fixes that are on (`spellingFixes`, `qualifierFixes`).
   * DecoSearch has it off: its Algorithm 1 falls through to decomposition as soon as the direct SQL
   * fails, and returns the DAG's final SQL as it ran (C.4's refiner appears in no algorithm).
   */
  enabled: boolean;
  /**
   * Which candidates the LLM reviser rewrites. 'always': every candidate, as DexterSQL §3.4.1 Step 2
   * publishes it (the diagnostic report, empty or not, goes with it); 'all-findings': only when a
   * plain-code check fires (any finding: errors, empty or suspicious results), a saving that `hybrid`
   * makes; 'errors': only SQL that does not parse or run (DecoSearch's refiner, C.4).
   */
  reviseOn: 'errors' | 'all-findings' | 'always';
  /** Revision rounds per candidate (each is one LLM call and one refinement of the run's budget). */
  maxRevisions: number;
  /** Rule-guided correction with mined rules (§3.4.1 Steps 3–4); skipped when none are stored. */
  rules: boolean;
  /**
   * Before any model is asked, apply the rewrites plain code is sure of (a column the database does
   * not know whose one right spelling the schema has: `pet_type` → `PetType`, `People_Name` →
   * `Name` of `people`), kept only when the SQL
   * gets better. Not in the papers: a 1.5B reviser told the right spelling wrote the wrong one again
   * three rounds running. `hybrid`, `dextersql` and `quick` do it; `decosearch`, as published,
   * does not. Like `qualifierFixes`, it runs with `enabled` off too (no model is asked).
   */
  spellingFixes: boolean;
  /**
   * Likewise for a column named through the wrong table (`T2.Name` where T2 is `hiring` and the
   * query's `shop` has `Name`): requalified by plain code when exactly one table of the query has
   * it; when none does and the one table of the schema that has it is where a foreign key of the
   * qualifier's table leads (a forgotten lookup join), that table is joined through the key. Kept
   * only when the SQL gets better. Not in the papers: it is the commonest execution error
   * of a 1.5B model over joins (README, "Accuracy with the local model"). `hybrid`, `dextersql`
   * and `quick` do it.
   */
  qualifierFixes: boolean;
  /**
   * Also run the checks that hold a query that runs against the question's words: a table joined
   * for nothing the question names (an inner join then drops and repeats rows), an id returned
   * where no id is asked. Not in the papers: they are the commonest mistakes of a 1.5B model once
   * its SQL runs (README, "Accuracy with the local model"). `hybrid` runs them.
   */
  questionChecks: boolean;
  /**
   * With `questionChecks`, a table `unused-join` finds joined for nothing is cut out of the query by
   * plain code (its join and ON condition; activities/correction/checks/without-joins.ts), and a
   * table `borrowed-column` finds joined only to read a column another table of the query has is
   * cut after that column is read there instead, before the reviser is asked; kept only when the
   * SQL gets better. Not in the papers. `hybrid` does it.
   */
  joinFixes: boolean;
}

export interface SelectionConfig {
  /** Execution-result clustering and, below the threshold, a pairwise tournament (§3.4.2). Off: the first executable candidate wins. */
  enabled: boolean;
  /** The top cluster's share of candidates at or above which it wins without a tournament (paper: 0.6). */
  confidenceThreshold: number;
  /** Cluster representatives that enter the tournament (each pair is one LLM call). */
  tournamentSize: number;
  /**
   * Candidates whose SQL runs but still carries a question check's warning after correction do not
   * vote while another candidate runs without one (core/selection/warned-candidates.ts); the first
   * paths' agreement stops generation early only when it is clean. Not in the paper.
   */
  setAsideWarned: boolean;
}

export interface PipelineConfig {
  preset: PresetName;
  ablations: Ablation[];
  /** The settings changed on top of the preset (before the ablations), as given. */
  overrides: PipelineOverrides;
  linking: LinkingConfig;
  notes: NotesConfig;
  judging: JudgingConfig;
  decomposition: DecompositionConfig;
  generation: GenerationConfig;
  correction: CorrectionConfig;
  selection: SelectionConfig;
}

export type Sections = Omit<PipelineConfig, 'preset' | 'ablations' | 'overrides'>;

/** DecoSearch's complex route as published (§3.5–3.7, Algorithm 1, Algorithm 4, appendix B). */
const DECOSEARCH_DECOMPOSITION: DecompositionConfig = {
  enabled: true,
  always: false,
  maxRefinements: 3,
  refineOn: 'errors',
  retryRejected: false,
  inlineRows: 100,
  examples: 3,
  temperature: 0.1,
  seedPlan: false,
};

const DEXTERSQL: Sections = {
  linking: { strategy: 'dextersql', preliminaryViews: [...PRELIMINARY_VIEWS], whenUnprepared: 'prepare', completeSelection: false, matchValues: true },
  notes: { enabled: true },
  judging: { enabled: false },
  decomposition: { ...DECOSEARCH_DECOMPOSITION, enabled: false },
  generation: { paths: ['dependency-tree', 'few-shot', 'divide-and-conquer'], stopOnAgreement: false },
  // Columns grounded by plain code before the reviser (not in the paper; README, "Deviations").
  correction: {
    enabled: true,
    reviseOn: 'always',
    maxRevisions: 1,
    rules: true,
    spellingFixes: true,
    qualifierFixes: true,
    questionChecks: false,
    joinFixes: false,
  },
  selection: { enabled: true, confidenceThreshold: 0.6, tournamentSize: 3, setAsideWarned: false },
};

export const PRESETS = {
  /** DexterSQL as published: no judger, three generation paths, every candidate revised, rules, selection. */
  dextersql: DEXTERSQL,
  /**
   * DecoSearch as published (Algorithm 1): LLM schema selector, judger, one zero-temperature SQL; a
   * direct SQL that does not run falls through to decomposition at once; the topology refiner on
   * node errors (B = 3). The SQL-refiner settings below are what `--set correction.enabled=true` turns on.
   */
  decosearch: {
    linking: { strategy: 'decosearch', preliminaryViews: [], whenUnprepared: 'full-schema', completeSelection: true, matchValues: false },
    notes: { enabled: false },
    judging: { enabled: true },
    decomposition: DECOSEARCH_DECOMPOSITION,
    generation: { paths: ['direct'], stopOnAgreement: false },
    correction: {
      enabled: false,
      reviseOn: 'errors',
      maxRevisions: 3,
      rules: false,
      spellingFixes: false,
      qualifierFixes: false,
      questionChecks: false,
      joinFixes: false,
    },
    selection: { enabled: false, confidenceThreshold: 0.6, tournamentSize: 3, setAsideWarned: false },
  },
  /**
   * One model call: the whole schema, the direct path, no reviser or selection; a column taken
   * from the wrong table or respelt is grounded by plain code, and a table joined for nothing the
   * question names is cut by plain code (no call; on 50 Spider train questions, seed 1: 0.612 →
   * 0.673 in Spider's wording, 0.510 → 0.592 in Spider-Syn's, none lost). For small local models
   * (the bundled 270M one loops or copies instructions when asked ten times) and smoke tests;
   * `decodex demo` uses it.
   */
  quick: {
    linking: { strategy: 'full-schema', preliminaryViews: [], whenUnprepared: 'full-schema', completeSelection: false, matchValues: false },
    notes: { enabled: false },
    judging: { enabled: false },
    decomposition: { ...DECOSEARCH_DECOMPOSITION, enabled: false },
    generation: { paths: ['direct'], stopOnAgreement: false },
    correction: {
      enabled: false,
      reviseOn: 'errors',
      maxRevisions: 0,
      rules: false,
      spellingFixes: true,
      qualifierFixes: true,
      questionChecks: true,
      joinFixes: true,
    },
    selection: { enabled: false, confidenceThreshold: 0.6, tournamentSize: 3, setAsideWarned: false },
  },
  /**
   * decodex's default: DexterSQL's linking; the direct, few-shot and divide-and-conquer
   * paths; correction and selection; DecoSearch's decomposition when no candidate runs. decodex's
   * additions (README, "Deviations from the papers"): the profiles view of linking in one line a
   * profile, revision only when a check fires, plain-code
   * fixes of misspelt and wrongly qualified columns and of tables joined for nothing, question checks (and candidates still warned by them do not vote), candidates revised before the fall-through to decomposition;
   * the topology refiner also on empty or all-NULL node results and asked again after a rejected
   * proposal; a zero-temperature decomposer.
   *
   * Left out because they changed no answer with the local 1.5B model (README, "Accuracy with the
   * local model": 94 Spider dev questions, the same answers with and without each) while costing
   * model calls on every question: the dependency-tree path (1.4 calls a question) and the judger's
   * routing to decomposition (1.7). `--set generation.paths=...` and `--set judging.enabled=true`
   * bring them back. Left out because they cost calls for answers as often lost as won: mined correction
   * rules (`--set correction.rules=true` brings them back). Left out because it lowered EX: the disambiguation notes, as the 1.5B model
   * writes them (long, statistics-laden, naming columns of several tables, which the generator then
   * joins or reads from the wrong table): 0.702 with them, 0.734 without, on the same 94 questions
   * (`dextersql` 0.649 and 0.702). `--set notes.enabled=true` brings them back (a stronger model's notes may help).
   */
  hybrid: {
    ...DEXTERSQL,
    // The third preliminary view with each profile in one line: the same answers on 41 Spider train
    // and 94 dev questions, a quarter fewer prompt tokens a question (README, "The local model on a CPU").
    linking: { ...DEXTERSQL.linking, preliminaryViews: ['focused', 'full', 'profile-lines'] },
    notes: { enabled: false },
    judging: { enabled: false },
    decomposition: { ...DECOSEARCH_DECOMPOSITION, refineOn: 'errors-and-empty', retryRejected: true, temperature: 0 },
    // The divide-and-conquer path (the longest answer) only when the first two disagree: the same answer, fewer calls.
    generation: { paths: ['direct', 'few-shot', 'divide-and-conquer'], stopOnAgreement: true },
    // A table joined for nothing is cut by plain code before the reviser is asked: the same answers, fewer revisions (README, deviations).
    // No mined rules: with the 1.5B model the rule step cost 4.8 calls a question for 1 answer won in 49 Spider
    // train questions, and lost 2 of the first 23 dev questions (a GROUP BY added to a query of aggregates only).
    correction: {
      ...DEXTERSQL.correction,
      reviseOn: 'all-findings',
      rules: false,
      spellingFixes: true,
      qualifierFixes: true,
      questionChecks: true,
      joinFixes: true,
    },
    // A candidate the reviser left with a question check's warning does not outvote one without (README, deviations).
    selection: { ...DEXTERSQL.selection, setAsideWarned: true },
  },
} satisfies Record<string, Sections>;

export type PresetName = keyof typeof PRESETS;
export const PRESET_NAMES = Object.keys(PRESETS) as PresetName[];
export const DEFAULT_PRESET: PresetName = 'hybrid';

/**
 * One ablation: what it removes (as the papers' tables name it), whether it applies to a
 * configuration (else the reason it does not, e.g. `dextersql` has no judger to remove), and the
 * configuration without it.
 */
interface AblationSpec {
  removes: string;
  notApplicable: (c: Sections) => string | null;
  apply: (c: Sections) => Sections;
}

const unless = (holds: boolean, reason: string) => (holds ? null : reason);
const pathAblation = (path: GenerationPath): AblationSpec => ({
  removes: `the ${path} generation path (${path === 'direct' ? "DecoSearch's one path" : 'DexterSQL Exp. 4'})`,
  notApplicable: (c) => unless(c.generation.paths.includes(path), `it has no ${path} path`),
  apply: (c) => ({ ...c, generation: { ...c.generation, paths: c.generation.paths.filter((p) => p !== path) } }),
});

/**
 * The papers' ablation rows (DecoSearch Table 2, DexterSQL Table 11 and Exp. 4): each removes
 * one component, and is an error on a configuration that does not have it.
 */
export const ABLATIONS = {
  /** DecoSearch Table 2 "w/o Judger (always decompose)": no question is judged, every one is decomposed. */
  judger: {
    removes: 'the judger: every question is decomposed (DecoSearch Table 2)',
    notApplicable: (c) => unless(c.judging.enabled && c.decomposition.enabled, 'it has no judger routing to decomposition'),
    apply: (c) => ({ ...c, judging: { enabled: false }, decomposition: { ...c.decomposition, always: true } }),
  },
  /** DecoSearch Table 2 "w/o Decomposition (direct path only)": nothing is decomposed, so the judger, which only routes there, is not asked. */
  decomposition: {
    removes: 'decomposition: the direct path answers every question, unjudged (DecoSearch Table 2)',
    notApplicable: (c) => unless(c.decomposition.enabled, 'it does not decompose'),
    apply: (c) => ({ ...c, judging: { enabled: false }, decomposition: { ...c.decomposition, enabled: false } }),
  },
  /** DecoSearch Table 2 "w/o Topology Refinement": a failing node's result is accepted as it is. */
  refinement: {
    removes: 'topology refinement of the sub-question DAG (DecoSearch Table 2)',
    notApplicable: (c) => unless(c.decomposition.enabled && c.decomposition.maxRefinements > 0, 'it has no topology refinement'),
    apply: (c) => ({ ...c, decomposition: { ...c.decomposition, maxRefinements: 0 } }),
  },
  /** DecoSearch Table 2 "w/o Schema Selector" (and DexterSQL's schema linking): the whole schema. */
  selector: {
    removes: 'schema linking: every prompt gets the whole schema, and no matched values (DecoSearch Table 2)',
    notApplicable: (c) => unless(c.linking.strategy !== 'full-schema', 'it links no schema'),
    apply: (c) => ({ ...c, linking: { ...c.linking, strategy: 'full-schema' as const, matchValues: false } }),
  },
  /** Not a row of Table 2: what the decomposition knowledge base (§3.5) is worth, the decomposer zero-shot without it. */
  retrieval: {
    removes: "retrieval of past decompositions (§3.5's knowledge base): the decomposer is zero-shot",
    notApplicable: (c) => unless(c.decomposition.enabled && c.decomposition.examples > 0, 'its decomposer retrieves no examples'),
    apply: (c) => ({ ...c, decomposition: { ...c.decomposition, examples: 0 } }),
  },
  'preliminary-sql': {
    removes: "DexterSQL linking's three preliminary SQLs (§3.2 Step 2)",
    notApplicable: (c) => unless(c.linking.strategy === 'dextersql' && c.linking.preliminaryViews.length > 0, 'it drafts no preliminary SQL'),
    apply: (c) => ({ ...c, linking: { ...c.linking, preliminaryViews: [] } }),
  },
  /** DexterSQL Table 11 "w/o Deep Schema Explorator": its notes are what reaches a question. */
  notes: {
    removes: "the Deep Schema Explorator's disambiguation notes (DexterSQL Table 11)",
    notApplicable: (c) => unless(c.notes.enabled, 'it incorporates no notes'),
    apply: (c) => ({ ...c, notes: { enabled: false } }),
  },
  'direct-path': pathAblation('direct'),
  /** DexterSQL Table 11 "w/o Dependency-tree-based generation". */
  'dependency-tree': pathAblation('dependency-tree'),
  'few-shot': pathAblation('few-shot'),
  'divide-and-conquer': pathAblation('divide-and-conquer'),
  correction: {
    removes: 'correction: no revision, no rules (candidates are still run for selection)',
    notApplicable: (c) => unless(c.correction.enabled, 'it corrects no candidate'),
    apply: (c) => ({ ...c, correction: { ...c.correction, enabled: false } }),
  },
  /** DexterSQL Table 11 "w/o Rule Creator-based correction". */
  rules: {
    removes: 'rule-guided correction with mined rules (DexterSQL Table 11)',
    notApplicable: (c) => unless(c.correction.enabled && c.correction.rules, 'it applies no mined rules'),
    apply: (c) => ({ ...c, correction: { ...c.correction, rules: false } }),
  },
  selection: {
    removes: 'confidence-aware selection: the first executable candidate wins',
    notApplicable: (c) => unless(c.selection.enabled, 'it selects among no candidates'),
    apply: (c) => ({ ...c, selection: { ...c.selection, enabled: false } }),
  },
} satisfies Record<string, AblationSpec>;

export type Ablation = keyof typeof ABLATIONS;
export const ABLATION_NAMES = Object.keys(ABLATIONS) as Ablation[];

/** Thrown for a configuration that cannot run; the message names the valid choices. */
export class PipelineConfigError extends Error {
  override name = 'PipelineConfigError';
}

/** Settings a run may change on top of its preset (e.g. the confidence threshold of DexterSQL's Exp. 5). */
export type PipelineOverrides = { [S in keyof Sections]?: Partial<Sections[S]> };

/**
 * A preset, overrides and ablations (in that order), checked: an unknown name is an error listing
 * the valid ones, an ablation that removes nothing from the configuration is an error saying why,
 * and every overridden value is checked (a typo must not silently mean "off").
 */
export function resolvePipelineConfig(preset: string | undefined, ablations: string[] = [], overrides: PipelineOverrides = {}): PipelineConfig {
  const name = preset ?? DEFAULT_PRESET;
  if (!(PRESET_NAMES as string[]).includes(name)) {
    throw new PipelineConfigError(`unknown preset "${name}"; valid presets: ${PRESET_NAMES.join(', ')}`);
  }
  const unknown = ablations.filter((a) => !(ABLATION_NAMES as string[]).includes(a));
  if (unknown.length)
    throw new PipelineConfigError(
      `unknown ablation${unknown.length > 1 ? 's' : ''} ${unknown.map((a) => `"${a}"`).join(', ')}; valid ablations: ${ABLATION_NAMES.join(', ')}`,
    );
  const applied = [...new Set(ablations)] as Ablation[];
  const sections = applied.reduce<Sections>(
    (c, a) => {
      const reason = ABLATIONS[a].notApplicable(c);
      if (reason)
        throw new PipelineConfigError(`ablation "${a}" removes nothing from preset "${name}"${applied.length > 1 ? ' as ablated so far' : ''}: ${reason}`);
      return ABLATIONS[a].apply(c);
    },
    withOverrides(PRESETS[name as PresetName], overrides),
  );
  if (sections.decomposition.always && !sections.decomposition.enabled)
    throw new PipelineConfigError('decomposition.always needs decomposition.enabled (drop the "decomposition" ablation, or use a preset that decomposes)');
  if (sections.generation.paths.length === 0) throw new PipelineConfigError(`preset "${name}" with ablations ${applied.join(', ')} leaves no generation path`);
  return { preset: name as PresetName, ablations: applied, overrides: cleanOverrides(overrides), ...sections };
}

/** Overrides without empty sections, so two spellings of "no override" label and hash alike. */
function cleanOverrides(overrides: PipelineOverrides): PipelineOverrides {
  return Object.fromEntries(Object.entries(overrides).filter(([, v]) => v && Object.keys(v).length)) as PipelineOverrides;
}

/** Each overridden setting as `section.key=value` (lists comma-separated), in section order: how `--set` spells them. */
export function formatOverrides(overrides: PipelineOverrides = {}): string[] {
  return SECTION_NAMES.flatMap((section) =>
    Object.entries((overrides[section] ?? {}) as Record<string, unknown>).map(([key, v]) => `${section}.${key}=${Array.isArray(v) ? v.join(',') : String(v)}`),
  );
}

/** The label a report shows: the preset, then what was switched off, then the settings changed. */
export function pipelineLabel(config: { preset: string; ablations: string[]; overrides?: PipelineOverrides }): string {
  const set = formatOverrides(config.overrides);
  return [config.preset, ...config.ablations].join(' − ') + (set.length ? ` [${set.join(', ')}]` : '');
}

const SECTION_NAMES: (keyof Sections)[] = ['linking', 'notes', 'judging', 'decomposition', 'generation', 'correction', 'selection'];

function withOverrides(base: Sections, overrides: PipelineOverrides): Sections {
  const unknownSections = Object.keys(overrides).filter((k) => !(SECTION_NAMES as string[]).includes(k));
  if (unknownSections.length)
    throw new PipelineConfigError(`unknown pipeline section ${unknownSections.map((s) => `"${s}"`).join(', ')}; sections: ${SECTION_NAMES.join(', ')}`);
  const merged = { ...base } as unknown as Record<string, Record<string, unknown>>;
  for (const section of SECTION_NAMES) {
    const given = (overrides[section] ?? {}) as Record<string, unknown>;
    const defaults = base[section] as unknown as Record<string, unknown>;
    for (const key of Object.keys(given)) {
      if (!(key in defaults)) throw new PipelineConfigError(`unknown setting ${section}.${key}; ${section} has ${Object.keys(defaults).join(', ')}`);
      if (typeof given[key] !== typeof defaults[key] || Array.isArray(given[key]) !== Array.isArray(defaults[key])) {
        throw new PipelineConfigError(
          `${section}.${key} must be ${Array.isArray(defaults[key]) ? 'a list' : `a ${typeof defaults[key]}`}, got ${JSON.stringify(given[key])}`,
        );
      }
    }
    merged[section] = { ...defaults, ...given };
  }
  const c = merged as unknown as Sections;
  const fraction = (v: number, name: string) => {
    if (!(v >= 0 && v <= 1)) throw new PipelineConfigError(`${name} must be between 0 and 1, got ${v}`);
  };
  const count = (v: number, name: string, min: number) => {
    if (!Number.isInteger(v) || v < min) throw new PipelineConfigError(`${name} must be an integer ≥ ${min}, got ${v}`);
  };
  fraction(c.selection.confidenceThreshold, 'selection.confidenceThreshold');
  count(c.selection.tournamentSize, 'selection.tournamentSize', 2);
  count(c.correction.maxRevisions, 'correction.maxRevisions', 0);
  if (c.correction.joinFixes && !c.correction.questionChecks)
    throw new PipelineConfigError('correction.joinFixes cuts the joins the question checks find: it needs correction.questionChecks=true');
  count(c.decomposition.maxRefinements, 'decomposition.maxRefinements', 0);
  count(c.decomposition.inlineRows, 'decomposition.inlineRows', 0);
  count(c.decomposition.examples, 'decomposition.examples', 0);
  oneOf(c.linking.strategy, ['dextersql', 'decosearch', 'full-schema'], 'linking.strategy');
  oneOf(c.linking.whenUnprepared, ['prepare', 'full-schema'], 'linking.whenUnprepared');
  for (const view of c.linking.preliminaryViews) oneOf(view, PRELIMINARY_VIEW_NAMES, 'linking.preliminaryViews');
  if (new Set(c.linking.preliminaryViews).size !== c.linking.preliminaryViews.length)
    throw new PipelineConfigError(`linking.preliminaryViews names a view twice: ${c.linking.preliminaryViews.join(',')}`);
  if (!(c.decomposition.temperature >= 0 && c.decomposition.temperature <= 2))
    throw new PipelineConfigError(`decomposition.temperature must be between 0 and 2, got ${c.decomposition.temperature}`);
  oneOf(c.decomposition.refineOn, ['errors', 'errors-and-empty'], 'decomposition.refineOn');
  oneOf(c.correction.reviseOn, ['errors', 'all-findings', 'always'], 'correction.reviseOn');
  for (const path of c.generation.paths) oneOf(path, GENERATION_PATHS, 'generation.paths');
  return c;
}

function oneOf(value: string, valid: readonly string[], name: string): void {
  if (!valid.includes(value)) throw new PipelineConfigError(`${name} must be one of ${valid.join(', ')}, got ${JSON.stringify(value)}`);
}
