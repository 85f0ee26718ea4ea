/**
 * What a question run does, stage by stage (DexterSQL §3.2–3.4, DecoSearch §3.3–3.4), with each
 * setting's default and why. A run is described by a preset plus ablations (and, for experiments,
 * overrides); the resolved configuration travels in the workflow input and the trace, so a
 * report's label is only what really ran.
 */
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
  /** DexterSQL Step 2 (three preliminary SQLs). Off, the retrieved columns are the focused schema. */
  preliminarySql: boolean;
  /**
   * A database never prepared has no indices. 'prepare' runs `prepareDatabase` first without a
   * model (profiles and indices; notes need `decodex prepare`), so the first question pays
   * seconds once; 'full-schema' answers over the whole schema instead.
   */
  whenUnprepared: 'prepare' | 'full-schema';
}

export interface NotesConfig {
  /** DexterSQL's note incorporator (§3.3.1): relevant disambiguation notes go into the prompts. */
  enabled: boolean;
}

export interface JudgingConfig {
  /** DecoSearch's judger (C.1). Off, every question takes the direct path (DexterSQL has none). */
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
  /** Topology refinements allowed per question (the paper's B = 3); they count against the run's refinement budget. */
  maxRefinements: number;
  /** An upstream result of at most this many rows is inlined as a value list; larger ones become a relation n<k> (paper: θ = 100). */
  inlineRows: number;
  /** Past decompositions shown to the decomposer from the knowledge base (paper: k = 3); zero-shot when none are stored. */
  examples: number;
}

export interface GenerationConfig {
  /**
   * The paths that each write one candidate. DecoSearch: the zero-temperature direct path (C.3).
   * DexterSQL: dependency tree, few-shot, divide-and-conquer (few-shot is skipped when no
   * few-shot index exists, and the trace says so).
   */
  paths: GenerationPath[];
}

export interface CorrectionConfig {
  /** Every candidate is diagnosed (parse, execution, suspicious results) and repaired (§3.4.1). */
  enabled: boolean;
  /**
   * Which findings call for an LLM revision. DecoSearch's refiner (C.4) acts on execution
   * failures only; DexterSQL also revises empty and suspicious results.
   */
  reviseOn: 'errors' | 'all-findings';
  /** Revision rounds per candidate (each is one LLM call and one refinement of the run's budget). */
  maxRevisions: number;
  /** Rule-guided correction with mined rules (§3.4.1 Steps 3–4); skipped when none are stored. */
  rules: boolean;
}

export interface SelectionConfig {
  /** Execution-result clustering and, below the threshold, a pairwise tournament (§3.4.2). Off: the first executable candidate wins. */
  enabled: boolean;
  /** The top cluster's share of candidates at or above which it wins without a tournament (paper: 0.6). */
  confidenceThreshold: number;
  /** Cluster representatives that enter the tournament (each pair is one LLM call). */
  tournamentSize: number;
}

export interface PipelineConfig {
  preset: PresetName;
  ablations: Ablation[];
  linking: LinkingConfig;
  notes: NotesConfig;
  judging: JudgingConfig;
  decomposition: DecompositionConfig;
  generation: GenerationConfig;
  correction: CorrectionConfig;
  selection: SelectionConfig;
}

type Sections = Omit<PipelineConfig, 'preset' | 'ablations'>;

const DEXTERSQL: Sections = {
  linking: { strategy: 'dextersql', preliminarySql: true, whenUnprepared: 'prepare' },
  notes: { enabled: true },
  judging: { enabled: false },
  decomposition: { enabled: false, always: false, maxRefinements: 3, inlineRows: 100, examples: 3 },
  generation: { paths: ['dependency-tree', 'few-shot', 'divide-and-conquer'] },
  correction: { enabled: true, reviseOn: 'all-findings', maxRevisions: 1, rules: true },
  selection: { enabled: true, confidenceThreshold: 0.6, tournamentSize: 3 },
};

export const PRESETS = {
  /** DexterSQL as published: no judger, three generation paths, correction and selection. */
  dextersql: DEXTERSQL,
  /** DecoSearch as published: LLM schema selector, judger, one zero-temperature SQL, refiner on failure (B = 3). */
  decosearch: {
    linking: { strategy: 'decosearch', preliminarySql: false, whenUnprepared: 'full-schema' },
    notes: { enabled: false },
    judging: { enabled: true },
    decomposition: { enabled: true, always: false, maxRefinements: 3, inlineRows: 100, examples: 3 },
    generation: { paths: ['direct'] },
    correction: { enabled: true, reviseOn: 'errors', maxRevisions: 3, rules: false },
    selection: { enabled: false, confidenceThreshold: 0.6, tournamentSize: 3 },
  },
  /**
   * One model call: the whole schema, the direct path, no correction or selection. For small
   * local models (the bundled 270M one loops or copies instructions when asked ten times) and
   * smoke tests; `decodex demo` uses it.
   */
  quick: {
    linking: { strategy: 'full-schema', preliminarySql: false, whenUnprepared: 'full-schema' },
    notes: { enabled: false },
    judging: { enabled: false },
    decomposition: { enabled: false, always: false, maxRefinements: 3, inlineRows: 100, examples: 3 },
    generation: { paths: ['direct'] },
    correction: { enabled: false, reviseOn: 'errors', maxRevisions: 0, rules: false },
    selection: { enabled: false, confidenceThreshold: 0.6, tournamentSize: 3 },
  },
  /** decodex's default: DexterSQL's linking and notes, DecoSearch's judger, then every path, correction and selection. */
  hybrid: {
    ...DEXTERSQL,
    judging: { enabled: true },
    decomposition: { enabled: true, always: false, maxRefinements: 3, inlineRows: 100, examples: 3 },
    generation: { paths: ['direct', 'dependency-tree', 'few-shot', 'divide-and-conquer'] },
  },
} satisfies Record<string, Sections>;

export type PresetName = keyof typeof PRESETS;
export const PRESET_NAMES = Object.keys(PRESETS) as PresetName[];
export const DEFAULT_PRESET: PresetName = 'hybrid';

/** The papers' ablations (DexterSQL Exp. 4/6, DecoSearch Table 4): each switches one component off. */
export const ABLATIONS = {
  judger: (c: Sections) => ({ ...c, judging: { enabled: false } }),
  decomposition: (c: Sections) => ({ ...c, decomposition: { ...c.decomposition, enabled: false } }),
  selector: (c: Sections) => ({ ...c, linking: { ...c.linking, strategy: 'full-schema' as const } }),
  'preliminary-sql': (c: Sections) => ({ ...c, linking: { ...c.linking, preliminarySql: false } }),
  notes: (c: Sections) => ({ ...c, notes: { enabled: false } }),
  'direct-path': (c: Sections) => withoutPath(c, 'direct'),
  'dependency-tree': (c: Sections) => withoutPath(c, 'dependency-tree'),
  'few-shot': (c: Sections) => withoutPath(c, 'few-shot'),
  'divide-and-conquer': (c: Sections) => withoutPath(c, 'divide-and-conquer'),
  correction: (c: Sections) => ({ ...c, correction: { ...c.correction, enabled: false } }),
  rules: (c: Sections) => ({ ...c, correction: { ...c.correction, rules: false } }),
  selection: (c: Sections) => ({ ...c, selection: { ...c.selection, enabled: false } }),
} satisfies Record<string, (c: Sections) => Sections>;

export type Ablation = keyof typeof ABLATIONS;
export const ABLATION_NAMES = Object.keys(ABLATIONS) as Ablation[];

function withoutPath(c: Sections, path: GenerationPath): Sections {
  return { ...c, generation: { paths: c.generation.paths.filter((p) => p !== path) } };
}

/** Thrown for a configuration that cannot run; the message names the valid choices. */
export class PipelineConfigError extends Error {
  override name = 'PipelineConfigError';
}

/** Settings a run may change on top of its preset (e.g. the confidence threshold of DexterSQL's Exp. 5). */
export type PipelineOverrides = { [S in keyof Sections]?: Partial<Sections[S]> };

/**
 * A preset, overrides and ablations (in that order), checked: an unknown name is an error listing
 * the valid ones, and every overridden value is checked (a typo must not silently mean "off").
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
  const sections = applied.reduce<Sections>((c, a) => ABLATIONS[a](c), withOverrides(PRESETS[name as PresetName], overrides));
  if (sections.decomposition.always && !sections.decomposition.enabled)
    throw new PipelineConfigError('decomposition.always needs decomposition.enabled (drop the "decomposition" ablation, or use a preset that decomposes)');
  if (sections.generation.paths.length === 0) throw new PipelineConfigError(`preset "${name}" with ablations ${applied.join(', ')} leaves no generation path`);
  return { preset: name as PresetName, ablations: applied, ...sections };
}

/** The label a report shows: the preset, then what was switched off. */
export function pipelineLabel(config: { preset: string; ablations: string[] }): string {
  return config.ablations.length ? `${config.preset} − ${config.ablations.join(' − ')}` : config.preset;
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
  count(c.decomposition.maxRefinements, 'decomposition.maxRefinements', 0);
  count(c.decomposition.inlineRows, 'decomposition.inlineRows', 0);
  count(c.decomposition.examples, 'decomposition.examples', 0);
  oneOf(c.linking.strategy, ['dextersql', 'decosearch', 'full-schema'], 'linking.strategy');
  oneOf(c.linking.whenUnprepared, ['prepare', 'full-schema'], 'linking.whenUnprepared');
  oneOf(c.correction.reviseOn, ['errors', 'all-findings'], 'correction.reviseOn');
  for (const path of c.generation.paths) oneOf(path, GENERATION_PATHS, 'generation.paths');
  return c;
}

function oneOf(value: string, valid: readonly string[], name: string): void {
  if (!valid.includes(value)) throw new PipelineConfigError(`${name} must be one of ${valid.join(', ')}, got ${JSON.stringify(value)}`);
}
