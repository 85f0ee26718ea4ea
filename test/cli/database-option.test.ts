import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DecodexClient } from '../../cli/client';
import { spiderDatabasePath } from '../../devkit/datasets';
import { runCli } from '../../devkit/run-cli';
import { UNUSED_LLM_ENV } from '../../devkit/test-workers';

/** A --db that no worker could open is refused at once, before a server, a worker or a workflow starts. */
describe('a database that cannot be opened', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'decodex-bad-db-'));
  const notSqlite = path.join(dir, 'notes.sqlite');
  writeFileSync(notSqlite, 'these are notes, not a database\n');
  const env = {
    DECODEX_HOME: dir,
    TEMPORAL_ADDRESS: process.env.DECODEX_TEST_TEMPORAL_ADDRESS!,
    DECODEX_QUEUE_PREFIX: `baddb${process.pid}.`,
    ...UNUSED_LLM_ENV,
  };

  it.each([
    [
      'a URL with one slash',
      ['ask', '--db', 'mysql:/x', 'How many rows?'],
      /--db: a database starting "mysql:" is no URL decodex reads: use mysql:\/\/user@host:port\/db/,
    ],
    ['another scheme (its password never echoed)', ['prepare', '--db', 'sqlserver://u:s3cret@h/db'], /--db: a database starting "sqlserver:" is no URL/],
    ['a SQLite file that does not exist', ['ask', '--db', path.join(dir, 'missing.sqlite'), 'How many rows?'], /--db: no SQLite database at .*missing\.sqlite/],
    ['a folder', ['prepare', '--db', dir], /--db: .* is not a file/],
    ['a file that is no SQLite database', ['prepare', '--db', notSqlite], /--db: .*notes\.sqlite is not a SQLite database/],
    [
      'a connection name nobody configured',
      ['ask', '--db', 'shop', 'How many rows?'],
      /--db: no database connection named "shop" is configured.*DECODEX_DATABASE_SHOP/,
    ],
  ])('%s', async (_what, args, message) => {
    const run = await runCli(args, env, 60_000);
    expect(run.stderr).toMatch(message);
    expect(run.code).toBe(2);
    expect(run.stderr).not.toMatch(/started |preparing |Temporal dev server/); // refused before anything started
    expect(run.stderr).not.toContain('s3cret');
  });

  it('DecodexClient refuses them too, and starts a run on a file only its workers see when told not to check files', async () => {
    const client = await DecodexClient.connect({ address: process.env.DECODEX_TEST_TEMPORAL_ADDRESS!, queuePrefix: `baddbclient${process.pid}.` });
    try {
      await expect(client.startQuestion({ question: 'How many rows?', database: 'mysql:/x' })).rejects.toThrow(/no URL decodex reads/);
      await expect(client.startQuestion({ question: 'How many rows?', database: path.join(dir, 'missing.sqlite') })).rejects.toThrow(/no SQLite database at/);
      await expect(client.startPreparation({ database: notSqlite })).rejects.toThrow(/is not a SQLite database/);
      const fine = await client.startQuestion({ question: 'How many rows?', database: spiderDatabasePath('concert_singer') });
      await fine.handle.terminate('test: only the start was checked');
    } finally {
      await client.close();
    }
    const remote = await DecodexClient.connect({
      address: process.env.DECODEX_TEST_TEMPORAL_ADDRESS!,
      queuePrefix: `baddbclient${process.pid}.`,
      checkDatabaseFiles: false,
    });
    try {
      const started = await remote.startQuestion({ question: 'How many rows?', database: '/on/the/worker/shop.sqlite' });
      await started.handle.terminate('test: only the start was checked');
    } finally {
      await remote.close();
    }
  });
});
