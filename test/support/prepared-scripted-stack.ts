import type { ScriptedLlm } from '../../devkit/scripted-llm/server';
import { startTestStack, type TestStack } from '../../devkit/test-workers';

/**
 * Workers whose model is the scripted LLM, with `database` prepared by the (scripted) explorator
 * first, so the database has disambiguation notes for the question pipeline to select from.
 */
export async function startPreparedScriptedStack(llm: ScriptedLlm, database: string): Promise<TestStack> {
  const stack = await startTestStack({
    DECODEX_LLM_BASE_URL: llm.baseUrl,
    DECODEX_LLM_MODEL: 'scripted',
    DECODEX_LLM_API_KEY: 'k',
    DECODEX_LLM_TIMEOUT_MS: '3000',
  });
  const prepared = await stack.client.prepare({ database });
  if (prepared.result.manifest.counts.notes === 0) throw new Error(`preparing ${database} wrote no notes: the scripted explorator's rules did not answer`);
  return stack;
}
