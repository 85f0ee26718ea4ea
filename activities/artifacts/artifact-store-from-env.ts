import path from 'node:path';
import { redactDatabaseSpec } from '../../core/database-reference';
import { isMysqlUrl } from '../database/mysql-connection-url';
import { parsePositiveInteger } from '../../core/config-values';
import type { ArtifactStore } from './artifact-store';
import { openSqliteArtifactStore } from './sqlite-artifact-store';

type Env = Record<string, string | undefined>;

/**
 * The worker's artifact store: MySQL/MariaDB when DECODEX_ARTIFACTS_URL names one (workers on
 * several machines then share profiles, manifests, notes, benchmark records and the LLM
 * cache), else the embedded SQLite file `<home>/artifacts.sqlite`. The password comes from the
 * URL or DECODEX_ARTIFACTS_PASSWORD, read here on the worker; it is never printed.
 */
export async function artifactStoreFromEnv(home: string, env: Env): Promise<ArtifactStore> {
  const url = env.DECODEX_ARTIFACTS_URL?.trim();
  if (!url) {
    for (const name of ['DECODEX_ARTIFACTS_PASSWORD', 'DECODEX_ARTIFACTS_POOL_SIZE']) {
      if (env[name]) throw new Error(`${name} is set but DECODEX_ARTIFACTS_URL is not: it only applies to a MySQL artifact store`);
    }
    return openSqliteArtifactStore(path.join(home, 'artifacts.sqlite'));
  }
  if (!isMysqlUrl(url)) throw new Error(`DECODEX_ARTIFACTS_URL must be a mysql:// or mariadb:// URL, got ${redactDatabaseSpec(url)}`);
  const pool = env.DECODEX_ARTIFACTS_POOL_SIZE;
  // Required here, not imported: the MySQL driver is about 15 MB of a process that stores artifacts in SQLite.
  const { openMysqlArtifactStore } = require('./mysql-artifact-store') as typeof import('./mysql-artifact-store');
  return openMysqlArtifactStore(url, {
    password: env.DECODEX_ARTIFACTS_PASSWORD,
    connectionLimit: pool ? parsePositiveInteger(pool, 'DECODEX_ARTIFACTS_POOL_SIZE') : undefined,
  });
}
