/**
 * A worker set in a process of its own (run by worker-process.ts): what `decodex worker` does,
 * with the test's prebuilt workflow bundle, so a test can SIGKILL it like a crashed host.
 * Configuration arrives as JSON in DECODEX_TEST_WORKER_SETUP; prints "ready" once it polls.
 */
import { writeSync } from 'node:fs';
import { quietRuntime, startWorkerSet, type WorkerSetOptions } from '../../devkit/test-workers';

async function main(): Promise<void> {
  const { llmEnv, options } = JSON.parse(process.env.DECODEX_TEST_WORKER_SETUP!) as { llmEnv: Record<string, string>; options: WorkerSetOptions };
  quietRuntime();
  const workers = await startWorkerSet(llmEnv, options);
  writeSync(1, 'ready\n');
  process.once('SIGTERM', () => void workers.stop().then(() => process.exit(0)));
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error).stack ?? err}\n`);
  process.exit(1);
});
