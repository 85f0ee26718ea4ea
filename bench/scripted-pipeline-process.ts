/**
 * The scripted online pipeline (test/support/scripted-pipeline: every role of a question run
 * answered in its template's JSON shape, the SQL from a table of answers) as a process of its
 * own, for benchmarks: a model server runs outside the workers, with no latency of its own here.
 *
 *   tsx bench/scripted-pipeline-process.ts <answers.json>   ({"<question>": "<sql>", ...})
 *
 * Prints its base URL on the first line of stdout, exits when stdin closes.
 */
import { readFileSync } from 'node:fs';
import { startScriptedLlm } from '../test/scripted-llm/server';
import { scriptedPipeline } from '../test/support/scripted-pipeline';

async function main(): Promise<void> {
  const answers = JSON.parse(readFileSync(process.argv[2], 'utf8')) as Record<string, string>;
  const llm = await startScriptedLlm({ rules: scriptedPipeline(new Map(Object.entries(answers))) });
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
