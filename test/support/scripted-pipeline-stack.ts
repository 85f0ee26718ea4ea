import { startScriptedLlm } from '../../devkit/scripted-llm/server';
import { scriptedPipeline, type ScriptedPipelineOptions } from '../../devkit/scripted-pipeline';
import { startTestStack, type TestStack } from '../../devkit/test-workers';

/**
 * Runs `work` against a worker stack whose LLM is the scripted pipeline (answering each question
 * of `sqlByQuestion` with its SQL, as `options` bend it), and stops both afterwards.
 */
export async function withScriptedPipeline(
  sqlByQuestion: Map<string, string>,
  options: ScriptedPipelineOptions,
  work: (stack: TestStack) => Promise<void>,
): Promise<void> {
  const llm = await startScriptedLlm({ rules: scriptedPipeline(sqlByQuestion, options) });
  const stack = await startTestStack({ DECODEX_LLM_BASE_URL: llm.baseUrl, DECODEX_LLM_MODEL: 'scripted', DECODEX_LLM_API_KEY: 'k' });
  try {
    await work(stack);
  } finally {
    await stack.stop();
    await llm.close();
  }
}
