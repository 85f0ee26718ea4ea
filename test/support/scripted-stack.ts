import { startScriptedLlm, type ScriptedLlm } from '../../devkit/scripted-llm/server';
import { scriptedPipeline } from '../../devkit/scripted-pipeline';
import { startTestStack, type TestStack } from '../../devkit/test-workers';

export interface ScriptedStack {
  llm: ScriptedLlm;
  stack: TestStack;
  stop(): Promise<void>;
}

/**
 * Workers whose model answers each known question with its SQL at every step (scriptedPipeline):
 * for tests of what decodex does with that SQL (execution, limits, history), not of the model.
 */
export async function startScriptedStack(sqlByQuestion: Map<string, string>): Promise<ScriptedStack> {
  const llm = await startScriptedLlm({ rules: scriptedPipeline(sqlByQuestion) });
  const stack = await startTestStack({ DECODEX_LLM_BASE_URL: llm.baseUrl, DECODEX_LLM_MODEL: 'scripted', DECODEX_LLM_API_KEY: 'k' });
  return {
    llm,
    stack,
    async stop() {
      await stack.stop();
      await llm.close();
    },
  };
}
