/**
 * The prompt catalog: the only list of decodex's LLM roles and of the templates that speak for
 * them. Each template is `prompts/<name>.md` (front matter with its version, a system and a user
 * part) with the JSON schema of its answer beside it in `prompts/<name>.schema.json`. A role is
 * what a user configures a model for (`DECODEX_LLM_<ROLE>_MODEL`); several templates may share
 * one role. A test checks that this catalog and the prompts folder agree file for file.
 */
export interface PromptSpec {
  role: string;
  /** The pipeline stage the template belongs to (the folder of its activity). */
  stage: string;
  /** Where the template comes from in the papers. */
  source: string;
}

export const PROMPT_CATALOG = {
  'triage-pair-profiles': { role: 'triager', stage: 'exploration', source: 'DexterSQL §3.1.3 Step 2 (profiles only)' },
  'triage-pair-keys': { role: 'triager', stage: 'exploration', source: 'DexterSQL §3.1.3 Step 2 (with keys and join path)' },
  'triage-pair-schema': { role: 'triager', stage: 'exploration', source: 'DexterSQL §3.1.3 Step 2 (with the whole schema)' },
  'synthesize-note': { role: 'note_writer', stage: 'exploration', source: 'DexterSQL §3.1.3 Step 4' },
  'draft-preliminary-sql': { role: 'linker', stage: 'linking', source: 'DexterSQL §3.2 Step 2 (three preliminary SQLs)' },
  'extract-keywords': { role: 'selector', stage: 'linking', source: 'DecoSearch §3.3, Algorithm 2 step 1' },
  'select-tables': { role: 'selector', stage: 'linking', source: 'DecoSearch §3.3, Algorithm 2 step 2' },
  'select-columns': { role: 'selector', stage: 'linking', source: 'DecoSearch §3.3, Algorithm 2 step 3' },
  'select-notes': { role: 'note_selector', stage: 'notes', source: 'DexterSQL §3.3.1' },
  'judge-complexity': { role: 'judger', stage: 'judging', source: 'DecoSearch §3.4, appendix C.1' },
  'decompose-question': { role: 'decomposer', stage: 'decomposition', source: 'DecoSearch §3.5, appendix C.2' },
  'generate-node-sql': { role: 'generator', stage: 'decomposition', source: 'DecoSearch §3.6, appendix C.3 (one sub-question)' },
  'refine-topology': { role: 'topology_refiner', stage: 'decomposition', source: 'DecoSearch §3.7, appendix C.5' },
  'generate-sql': { role: 'generator', stage: 'generation', source: 'DecoSearch §3.4/§3.6, appendix C.3 (direct path)' },
  'generate-sql-dependency-tree': { role: 'generator', stage: 'generation', source: 'DexterSQL §3.3.2 (dependency-tree IR path)' },
  'generate-sql-few-shot': { role: 'generator', stage: 'generation', source: 'DexterSQL §3.3.2 (few-shot path)' },
  'generate-sql-divide-and-conquer': { role: 'generator', stage: 'generation', source: 'DexterSQL §3.3.2 (divide-and-conquer path)' },
  'revise-sql': { role: 'reviser', stage: 'correction', source: 'DexterSQL §3.4.1 Step 2; DecoSearch appendix C.4' },
  'select-rules': { role: 'rule_corrector', stage: 'correction', source: 'DexterSQL §3.4.1 Step 3' },
  'apply-rules': { role: 'rule_corrector', stage: 'correction', source: 'DexterSQL §3.4.1 Step 4' },
  'compare-candidates': { role: 'selection_judge', stage: 'selection', source: 'DexterSQL §3.4.2 (pairwise tournament)' },
  'explain-failure': { role: 'rule_creator', stage: 'mining', source: 'DexterSQL §3.1.4 Step 1 (error mining)' },
  'isolate-failure': { role: 'rule_creator', stage: 'mining', source: 'DexterSQL §3.1.4 Step 2 (database-agnostic isolation)' },
  'cluster-failures': { role: 'rule_creator', stage: 'mining', source: 'DexterSQL §3.1.4 Step 3 (batch clustering)' },
  'merge-failure-groups': { role: 'rule_creator', stage: 'mining', source: 'DexterSQL §3.1.4 Step 3 (merging per database, then across)' },
  'synthesize-rule': { role: 'rule_creator', stage: 'mining', source: 'DexterSQL §3.1.4 Step 4 (rule synthesis)' },
} as const satisfies Record<string, PromptSpec>;

export type PromptName = keyof typeof PROMPT_CATALOG;

export const PROMPT_NAMES = Object.keys(PROMPT_CATALOG) as PromptName[];

/** Every role, once, in catalog order. */
export const ROLES: string[] = [...new Set(PROMPT_NAMES.map((name) => PROMPT_CATALOG[name].role))];

/** The roles of one stage (e.g. the exploration roles `decodex prepare` needs a model for). */
export function rolesOfStage(stage: string): string[] {
  return [...new Set(PROMPT_NAMES.filter((n) => PROMPT_CATALOG[n].stage === stage).map((n) => PROMPT_CATALOG[n].role))];
}
