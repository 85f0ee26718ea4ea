/**
 * Child-process entry of bundleWorkflows (workers/bundle-workflows.ts): bundles decodex's
 * workflows with webpack into `<output.js>`, a file a worker loads (`workflowBundle: { codePath }`).
 *
 *   npx tsx workers/bundle-workflows-main.ts <output.js>
 */
import { writeFileSync } from 'node:fs';
import { bundleWorkflowCode } from '@temporalio/worker';

async function main(): Promise<void> {
  const output = process.argv[2];
  if (!output) throw new Error('usage: tsx workers/bundle-workflows-main.ts <output.js>');
  const quiet = () => undefined;
  const bundle = await bundleWorkflowCode({
    workflowsPath: require.resolve('../workflows'),
    logger: {
      trace: quiet,
      debug: quiet,
      info: quiet,
      warn: (message: string) => console.error(message),
      log: quiet,
      error: (message: string) => console.error(message),
    },
  });
  writeFileSync(output, bundle.code);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
