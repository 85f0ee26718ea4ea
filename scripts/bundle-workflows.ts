/**
 * Bundles decodex's workflows once, into a file a worker can load (`workflowBundle: { codePath }`),
 * instead of every worker process running webpack at start (about 2 s and 250 MB of memory).
 *
 *   npx tsx scripts/bundle-workflows.ts <output.js>
 */
import { writeFileSync } from 'node:fs';
import { bundleWorkflowCode } from '@temporalio/worker';

async function main(): Promise<void> {
  const output = process.argv[2];
  if (!output) throw new Error('usage: tsx scripts/bundle-workflows.ts <output.js>');
  const quiet = () => undefined;
  const bundle = await bundleWorkflowCode({
    workflowsPath: require.resolve('../workflows'),
    logger: { trace: quiet, debug: quiet, info: quiet, warn: quiet, log: quiet, error: (message: string) => console.error(message) },
  });
  writeFileSync(output, bundle.code);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
