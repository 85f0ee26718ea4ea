/**
 * The scripted exploration LLM (test/support/scripted-exploration-rules) as a process of its
 * own, for benchmarks: a real model server runs outside the worker, so its memory and CPU must
 * not be counted as decodex's. Prints its base URL on the first line of stdout, exits when
 * stdin closes.
 */
import { startScriptedLlm } from '../test/scripted-llm/server';
import { scriptedExplorationRules } from '../test/support/scripted-exploration-rules';

async function main(): Promise<void> {
  const llm = await startScriptedLlm({ rules: scriptedExplorationRules });
  // It records every request for tests' assertions; a long benchmark must not keep them all.
  setInterval(() => llm.requests.splice(0), 1_000).unref();
  process.stdout.write(`${llm.baseUrl}\n`);
  process.stdin.resume();
  process.stdin.on('end', () => void llm.close().then(() => process.exit(0)));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
