/**
 * Every knob of the offline preparation (DexterSQL §3.1.1–3.1.3), with its default and why.
 * The three sections change what is produced, so each is part of the version of the
 * artifacts it shapes (profiles, indices, exploration); `PreparationLimits` only bound time and
 * cost, so changing them never invalidates anything.
 */
export interface ProfileConfig {
  /** Most frequent values kept per column, with their counts (§3.1.1 "representative values"). */
  mostFrequentValues: number;
  /** Sample of distinct values kept per column, chosen by a seeded hash (same data, same sample). */
  sampleValues: number;
  /** Distinct values read per column (most frequent first) to pick the two lists above from. */
  valueScanLimit: number;
  /**
   * Rows read per table for statistics. A larger table is profiled over its first
   * `rowScanLimit` rows and its profile says so; the row count itself is always exact.
   */
  rowScanLimit: number;
  /** A long text value is cut to this many characters in a profile (a profile is prompt text). */
  maxValueChars: number;
}

export interface IndexConfig {
  /** η of §3.1.2: distinct values per text column embedded into the value index (paper: 10,000). */
  valuesPerColumn: number;
  /**
   * What the profile index embeds per column (core/indexing/retrieval-text.ts): `names`, its
   * table and column names and documentation; `profile`, those plus its declared type, value
   * format and sample values, as the paper embeds the profile. `npm run bench:linking` prints
   * the recall of both.
   */
  profileText: ProfileIndexText;
}

export const PROFILE_INDEX_TEXTS = ['names', 'profile'] as const;
export type ProfileIndexText = (typeof PROFILE_INDEX_TEXTS)[number];

export interface ExplorationConfig {
  /**
   * Steps 2 and 4 ask a model (triage, notes). Off, the explorator measures Step 3's statistics
   * for every Step 1 candidate and writes no notes: for users without a model, and for timing
   * the deterministic part alone.
   */
  useLlm: boolean;
  /** Step 1: a pair is a candidate when the Jaccard overlap of its name tokens reaches this. */
  nameOverlapThreshold: number;
  /** Step 1: ... or when the cosine of its two column signatures reaches this. */
  profileSimilarityThreshold: number;
  /** Step 1 keeps at most this many candidates (best scores first): it bounds triage cost. */
  maxCandidatePairs: number;
  /** Step 3: longest PK/FK join path (in joins) between the two tables that is measured. */
  maxJoinHops: number;
  /** Step 4: pairs whose evidence one family note may quote (the rest are named only). */
  maxPairsPerNote: number;
}

export interface PreparationConfig {
  profile: ProfileConfig;
  index: IndexConfig;
  exploration: ExplorationConfig;
}

/** Time and cost bounds of one preparation run; enforced by the workflow and its activity options. */
export interface PreparationLimits {
  /** Paid LLM calls (triage: 3 per pair; notes: 1 per family; cache hits are free); the run stops asking when reached. */
  maxLlmCalls: number;
  /** Prompt + completion tokens over the whole run. */
  maxTokens: number;
  /** Tables profiled at the same time. */
  parallelTables: number;
  /** Triage and note activities in flight at the same time. */
  parallelLlmCalls: number;
  /** One statistics or profiling query; a slower one is stopped and reported, not waited for. */
  queryTimeoutMs: number;
  /** Liveness of a long activity: a worker that dies is noticed after this long. */
  heartbeatTimeoutMs: number;
  /** One offline activity, all its queries included. */
  activityTimeoutMs: number;
  /** One LLM activity attempt (three triage calls, or one note). */
  llmActivityTimeoutMs: number;
  /** Attempts per activity before the run fails. */
  maxAttempts: number;
  /** Columns whose cardinality statistics one table scan computes. */
  columnsPerScan: number;
  /**
   * How much one profiling or statistics activity takes on, in values read as the row counts
   * estimate them (a table: rows, at most `profile.rowScanLimit`, × columns; a pair: the rows
   * of its two tables). Tables, or pairs, are packed into one activity up to this; one that is
   * larger gets an activity of its own. Larger: fewer activities, less Temporal overhead;
   * smaller: more of one database's work side by side (`parallelTables`) and finer progress.
   */
  valuesPerActivity: number;
}

export const DEFAULT_PREPARATION_CONFIG: PreparationConfig = {
  profile: { mostFrequentValues: 10, sampleValues: 10, valueScanLimit: 1_000, rowScanLimit: 1_000_000, maxValueChars: 80 },
  index: { valuesPerColumn: 10_000, profileText: 'names' },
  exploration: {
    useLlm: true,
    nameOverlapThreshold: 0.5,
    profileSimilarityThreshold: 0.9,
    maxCandidatePairs: 40,
    maxJoinHops: 3,
    maxPairsPerNote: 10,
  },
};

export const DEFAULT_PREPARATION_LIMITS: PreparationLimits = {
  maxLlmCalls: 200,
  maxTokens: 1_000_000,
  parallelTables: 4,
  parallelLlmCalls: 4,
  queryTimeoutMs: 120_000,
  heartbeatTimeoutMs: 30_000,
  activityTimeoutMs: 60 * 60_000,
  llmActivityTimeoutMs: 10 * 60_000,
  maxAttempts: 5,
  columnsPerScan: 16,
  valuesPerActivity: 1_000_000,
};

export type PreparationConfigOverrides = {
  [S in keyof PreparationConfig]?: Partial<PreparationConfig[S]>;
};

/** Defaults overlaid with the caller's values, each checked (a typo must not mean "unbounded"). */
export function resolvePreparationConfig(overrides: PreparationConfigOverrides = {}): PreparationConfig {
  const config: PreparationConfig = {
    profile: { ...DEFAULT_PREPARATION_CONFIG.profile, ...overrides.profile },
    index: { ...DEFAULT_PREPARATION_CONFIG.index, ...overrides.index },
    exploration: { ...DEFAULT_PREPARATION_CONFIG.exploration, ...overrides.exploration },
  };
  const { profileText, ...indexCounts } = config.index;
  if (!PROFILE_INDEX_TEXTS.includes(profileText))
    throw new Error(`preparation index.profileText must be one of ${PROFILE_INDEX_TEXTS.join(', ')}, got ${JSON.stringify(profileText)}`);
  checkCounts(config.profile, 'profile');
  checkCounts(indexCounts, 'index');
  const { useLlm, nameOverlapThreshold, profileSimilarityThreshold, ...counts } = config.exploration;
  if (typeof useLlm !== 'boolean') throw new Error(`preparation config exploration.useLlm must be true or false, got ${JSON.stringify(useLlm)}`);
  checkCounts(counts, 'exploration');
  checkFraction(nameOverlapThreshold, 'exploration.nameOverlapThreshold');
  checkFraction(profileSimilarityThreshold, 'exploration.profileSimilarityThreshold');
  return config;
}

export function resolvePreparationLimits(overrides: Partial<PreparationLimits> = {}): PreparationLimits {
  const limits = { ...DEFAULT_PREPARATION_LIMITS, ...overrides };
  checkCounts(limits, 'limits');
  return limits;
}

function checkCounts(section: object, name: string): void {
  for (const [key, value] of Object.entries(section)) {
    if (!Number.isInteger(value) || (value as number) < 1) throw new Error(`preparation ${name}.${key} must be a positive integer, got ${value}`);
  }
}

function checkFraction(value: number, name: string): void {
  if (typeof value !== 'number' || !(value >= 0 && value <= 1)) throw new Error(`preparation ${name} must be between 0 and 1, got ${value}`);
}
