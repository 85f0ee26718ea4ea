import { settingsForRole } from '../../activities/llm/llm-config';
import { resolveLocalModelFile } from '../../activities/llm/local/model-file';
import type { RuntimeConfig } from '../../core/runtime-config';
import { loadWorkerLlmConfig } from '../../workers/build-deps';

/**
 * Fails fast, before any server starts, when the generator's model cannot be used: a remote one
 * must be configured completely, a local GGUF must exist. A local model given as a URI is
 * downloaded here, with a progress bar, rather than inside an activity whose timeout would cut it.
 * `runsModel` is false when this process runs no `llm` worker (the model is another machine's business).
 */
export async function prepareLlm(config: RuntimeConfig, runsModel: boolean, log: (line: string) => void): Promise<void> {
  const settings = settingsForRole(loadWorkerLlmConfig(config, process.env), 'generator');
  if (settings.provider !== 'local' || !runsModel) return;
  const file = await resolveLocalModelFile(settings.model, { showProgress: true });
  log(`llm: local model ${file} (in-process; set DECODEX_LLM_BASE_URL or DECODEX_LLM_PROVIDER for a remote one)`);
}
