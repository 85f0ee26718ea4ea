/**
 * A scripted LLM (test/scripted-llm) as a process of its own, for benchmarks: a real model
 * server runs outside the worker, so its memory and CPU must not be counted as decodex's.
 * Prints its base URL on the first line of stdout, exits when stdin closes.
 *
 * Default: the exploration roles (devkit/scripted-exploration-rules), for preparation.
 * `--pipeline <file>`: the online roles (devkit/scripted-pipeline) answering the questions
 * of a JSON file `{ "<question>": "<sql>" }`; then, when stdin closes, one more line is printed
 * before exiting: `served: {"<question>": <ms>}`, the time the server spent on each question's
 * requests (from arrival to the end of the answer), i.e. what the asker waited on the model.
 * `--latency-ms N`: every completion is answered after N ms, like a real model's generation.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { startScriptedLlm, type RecordedRequest } from '../devkit/scripted-llm/server';
import { scriptedExplorationRules } from '../devkit/scripted-exploration-rules';
import { questionIn, scriptedPipeline } from '../devkit/scripted-pipeline';

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { pipeline: { type: 'string' }, 'latency-ms': { type: 'string' } } });
  const answers = values.pipeline ? new Map(Object.entries(JSON.parse(readFileSync(values.pipeline, 'utf8')) as Record<string, string>)) : null;
  const llm = await startScriptedLlm({
    rules: answers ? scriptedPipeline(answers) : scriptedExplorationRules,
    latencyMs: values['latency-ms'] ? Number(values['latency-ms']) : undefined,
  });
  // It records every request for tests' assertions; a long benchmark must not keep them all,
  // only the time served per question.
  const served = new Map<string, number>();
  const collect = (requests: RecordedRequest[]) => {
    for (const r of requests) {
      const question = r.prompt ? questionIn(r.prompt.user) : '';
      served.set(question, (served.get(question) ?? 0) + r.elapsedMs);
    }
  };
  setInterval(() => {
    const done = llm.requests.filter((r) => r.elapsedMs > 0);
    llm.requests.splice(0, llm.requests.length, ...llm.requests.filter((r) => r.elapsedMs === 0));
    if (answers) collect(done);
  }, 1_000).unref();
  process.stdout.write(`${llm.baseUrl}\n`);
  process.stdin.resume();
  process.stdin.on('end', () => {
    if (answers) {
      collect(llm.requests);
      process.stdout.write(`served: ${JSON.stringify(Object.fromEntries(served))}\n`);
    }
    void llm.close().then(() => process.exit(0));
  });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
