/**
 * Child process of test/workers/lazy-clients.test.ts: builds a worker's dependencies and
 * activities from the environment, as `decodex worker` does, then prints the npm packages the
 * process has loaded (one JSON array on stdout).
 */
import { createActivities } from '../../activities';
import { resolveRuntimeConfig } from '../../core/runtime-config';
import { buildActivityDeps } from '../../workers/build-deps';
import '../../workers/create-workers';

async function main(): Promise<void> {
  const deps = await buildActivityDeps(resolveRuntimeConfig(process.env, process.cwd()), process.env);
  createActivities(deps);
  const packages = new Set<string>();
  for (const file of Object.keys(require.cache)) {
    const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file);
    if (m) packages.add(m[1]);
  }
  await deps.close();
  process.stdout.write(JSON.stringify([...packages].sort()));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
