import { writeFileSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { bundleWorkflowCode } from '@temporalio/worker';
import { findTemporalCli } from '../../cli/temporal/find-temporal-cli';
import { ALL_SEARCH_ATTRIBUTES } from '../../core/search-attributes';
import { startMariaDb } from '../../devkit/mariadb';
import { findPostgresBinaries, startPostgres } from '../../devkit/postgres';
import { findQdrantBinary, startQdrant } from '../../devkit/qdrant';

/**
 * Once per test run: one real Temporal dev server (the pinned CLI, nothing downloaded), one
 * workflow bundle, one MariaDB server, one PostgreSQL server, one Qdrant server. Their addresses
 * reach the test files via env vars. Without a Qdrant binary (or PostgreSQL's), DECODEX_TEST_QDRANT_MISSING
 * (DECODEX_TEST_POSTGRES_MISSING) says why, and those tests say so in their titles
 * (test/support/describe-with-service.ts; under CI=true they fail).
 */
export default async function globalSetup(): Promise<void> {
  const started: { stop(): Promise<void> }[] = [];
  (globalThis as Record<string, unknown>).__decodexServices = started;

  const cli = findTemporalCli(process.env.DECODEX_TEMPORAL_CLI ?? null);
  const env = await startTestServer(cli);
  started.push({ stop: () => env.teardown() });
  process.env.DECODEX_TEST_TEMPORAL_ADDRESS = env.address;

  const dir = mkdtempSync(path.join(os.tmpdir(), 'decodex-test-'));
  const bundle = await bundleWorkflowCode({ workflowsPath: require.resolve('../../workflows'), logger: quietLogger() });
  const codePath = path.join(dir, 'workflow-bundle.js');
  writeFileSync(codePath, bundle.code);
  process.env.DECODEX_TEST_WORKFLOW_BUNDLE = codePath;

  if (!process.env.DECODEX_TEST_MYSQL_URL) {
    const mariadb = await startMariaDb();
    started.push(mariadb);
    process.env.DECODEX_TEST_MYSQL_URL = mariadb.url;
  }

  if (!process.env.DECODEX_TEST_POSTGRES_URL) {
    const binaries = findPostgresBinaries();
    if ('missing' in binaries) {
      process.env.DECODEX_TEST_POSTGRES_MISSING = binaries.missing;
    } else {
      const postgres = await startPostgres(binaries);
      started.push(postgres);
      process.env.DECODEX_TEST_POSTGRES_URL = postgres.url;
      process.env.DECODEX_TEST_POSTGRES_DATA_DIR = postgres.dataDir;
    }
  }

  if (!process.env.DECODEX_TEST_QDRANT_URL) {
    const binary = findQdrantBinary();
    if ('path' in binary) {
      const qdrant = await startQdrant(binary.path);
      started.push({ stop: () => qdrant.dispose() });
      process.env.DECODEX_TEST_QDRANT_URL = qdrant.url;
    } else {
      process.env.DECODEX_TEST_QDRANT_MISSING = binary.missing;
    }
  }
}

function quietLogger() {
  const noop = () => {};
  return { trace: noop, debug: noop, info: noop, warn: noop, error: (m: string) => console.error(m), log: noop };
}

/**
 * The SDK's ephemeral server must answer within a fixed 5 s (sdk-core), which a cold start of the
 * Temporal CLI on a busy 2-core machine sometimes misses: up to three attempts, the last error kept.
 */
async function startTestServer(cli: string): Promise<TestWorkflowEnvironment> {
  let lastError: unknown;
  for (let attempt = 1; attempt <= 3; attempt++) {
    try {
      return await TestWorkflowEnvironment.createLocal({
        server: {
          executable: { type: 'existing-path', path: cli },
          searchAttributes: ALL_SEARCH_ATTRIBUTES,
          extraArgs: ['--log-level', 'error'],
        },
      });
    } catch (err) {
      lastError = err;
      console.error(`global setup: the Temporal test server did not start (attempt ${attempt} of 3): ${(err as Error).message}`);
    }
  }
  throw lastError;
}
