/**
 * The scripted LLM as a process of its own, for benchmarks: a real model server runs outside the
 * worker, so its memory and CPU must not be counted as decodex's. Without an argument it answers
 * exploration (test/support/scripted-exploration-rules); with `<answers.json>`
 * (`{"<question>": "<sql>"}`) every role of a question run (test/support/scripted-pipeline).
 * Prints its base URL on the first line of stdout, exits when stdin closes.
 */
import { readFileSync } from 'node:fs';
import { startScriptedLlm } from '../test/scripted-llm/server';
import { scriptedExplorationRules } from '../test/support/scripted-exploration-rules';
import { scriptedPipeline } from '../test/support/scripted-pipeline';

async function main(): Promise<void> {
  const answersFile = process.argv[2];
  const rules = answersFile
    ? scriptedPipeline(new Map(Object.entries(JSON.parse(readFileSync(answersFile, 'utf8')) as Record<string, string>)))
    : scriptedExplorationRules;
  const llm = await startScriptedLlm({ rules });
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
