import { describeWithService } from './describe-with-service';

export interface PostgresTestServer {
  /** `postgres://postgres@127.0.0.1:PORT/postgres`: the superuser; add a database to the path. */
  url: string;
  /** The server's data directory when global-setup started it (empty for an external server). */
  dataDir: string;
}

/**
 * `describe` for tests against the PostgreSQL server global-setup started (or the one named by
 * DECODEX_TEST_POSTGRES_URL). Without one, the title says why (describeWithService).
 */
export function describeWithPostgres(title: string, body: (server: () => PostgresTestServer) => void): void {
  const reason = process.env.DECODEX_TEST_POSTGRES_URL
    ? null
    : (process.env.DECODEX_TEST_POSTGRES_MISSING ?? 'global-setup started no PostgreSQL server (run the tests through jest)');
  const server = () => ({ url: process.env.DECODEX_TEST_POSTGRES_URL ?? '', dataDir: process.env.DECODEX_TEST_POSTGRES_DATA_DIR ?? '' });
  describeWithService(title, 'PostgreSQL', reason, 'run scripts/setup.sh --test-services, or set POSTGRES_BIN or DECODEX_TEST_POSTGRES_URL', () =>
    body(server),
  );
}
