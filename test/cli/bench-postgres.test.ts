import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { withPostgres } from '../../devkit/postgres-state';
import { describeWithPostgres } from '../support/postgres-tests';
import { runCli } from '../../devkit/run-cli';
import { loadSpiderIntoPostgres } from '../../devkit/spider-to-postgres';
import { devGoldSql, spiderDbPath } from '../database/spider-files';

/** Spider dev's first 50 questions: 45 over concert_singer, then 5 over pets_1 (read from the dataset, never quoted here). */
const LIMIT = 50;
const LOADED = 'concert_singer';
const NOT_LOADED = 'pets_1';
/** Prefixed, so the copies never meet another test file's databases on the shared server. */
const PREFIX = 'benchpg_';
const READER = 'benchpg_reader';

const valuesOf = (stdout: string) =>
  Object.fromEntries(
    stdout
      .trim()
      .split('\n')
      .map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 2)]),
  );

describeWithPostgres('decodex bench on PostgreSQL copies of Spider (--databases postgres://.../{db_id})', (server) => {
  let refused = 0;
  let accepted = 0;
  const host = () => new URL(server().url).host;

  beforeAll(async () => {
    await withPostgres(server().url, async (c) => {
      await c.query(`DROP DATABASE IF EXISTS ${PREFIX}${NOT_LOADED} WITH (FORCE)`);
      await c.query(`DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '${READER}') THEN CREATE ROLE ${READER} LOGIN; END IF; END $$`);
    });
    const loaded = await loadSpiderIntoPostgres(spiderDbPath(LOADED), server().url, { database: `${PREFIX}${LOADED}`, reader: READER });
    await withPostgres(loaded.url, async (c) => {
      // What PostgreSQL itself accepts of the gold SQL, asked directly: the bench must score every
      // one of these 1 and count the others as gold errors.
      for (const sql of devGoldSql(LOADED)) {
        const ok = await c.query(sql).then(
          () => true,
          () => false,
        );
        if (ok) accepted++;
        else refused++;
      }
    });
  }, 120_000);

  afterAll(() =>
    withPostgres(server().url, async (c) => {
      await c.query(`DROP DATABASE IF EXISTS ${PREFIX}${LOADED} WITH (FORCE)`);
      await c.query(`DROP ROLE IF EXISTS ${READER}`);
    }),
  );

  it('scores 1 on every gold query PostgreSQL accepts, counts the refused ones, and a database the server lacks is not executable', async () => {
    // Spider's SQL is SQLite's: some of concert_singer's gold must be refused, or this would not show which engine ran it.
    expect(refused).toBeGreaterThan(0);
    expect(accepted).toBeGreaterThan(0);
    const home = mkdtempSync(path.join(os.tmpdir(), 'decodex-bench-pg-'));
    const run = await runCli(
      ['bench', '--dataset', 'spider-dev', '--gold-as-prediction', '--limit', String(LIMIT), '--databases', `postgres://${READER}@${host()}/${PREFIX}{db_id}`],
      {
        DECODEX_HOME: home,
        TEMPORAL_ADDRESS: process.env.DECODEX_TEST_TEMPORAL_ADDRESS!,
        DECODEX_QUEUE_PREFIX: `benchpg${process.pid}.`,
        DECODEX_POSTGRES_ACCOUNT: 'require',
      },
      180_000,
    );
    expect(run.stderr).not.toMatch(/warning|error/i);
    expect(run.code).toBe(0);
    const values = valuesOf(run.stdout);
    expect(values).toMatchObject({
      questions: String(LIMIT),
      executable_questions: String(accepted + refused),
      not_executable: String(LIMIT - accepted - refused),
      verdict_correct: String(accepted),
      verdict_gold_error: String(refused),
      verdict_wrong: '0',
      verdict_evaluation_error: '0',
      ex_where_gold_runs: `1.0000 (${accepted}/${accepted})`,
      [`missing_database_${NOT_LOADED}`]: `${LIMIT - accepted - refused} questions`,
    });
    expect(run.stderr).toContain(`gold self-check: ${refused} gold queries failed on their database`);
  }, 200_000);
});

describe('decodex bench --databases with a server URL', () => {
  const home = () => mkdtempSync(path.join(os.tmpdir(), 'decodex-bench-pg-'));

  it('refuses a URL without {db_id}, which would send every question to one database', async () => {
    const run = await runCli(['bench', '--dataset', 'spider-dev', '--gold-as-prediction', '--databases', 'postgres://reader@db:5432/spider'], {
      DECODEX_HOME: home(),
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('{db_id}');
  });

  it('refuses a password, which would reach every question in the history, without printing it', async () => {
    const run = await runCli(['bench', '--dataset', 'spider-dev', '--gold-as-prediction', '--databases', 'postgres://reader:s3cret@db:5432/{db_id}'], {
      DECODEX_HOME: home(),
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/holds a password/);
    expect(run.stderr).not.toContain('s3cret');
  });
});
