import { existsSync } from 'node:fs';
import path from 'node:path';
import { readGoldFile } from '../activities/benchmark/datasets/dataset-files';
import { PostgresDatabase } from '../activities/database/postgres-database';
import { SqliteDatabase } from '../activities/database/sqlite-database';
import { SqliteProcessPool } from '../activities/database/sqlite-process-pool';
import { sameRowMultiset } from '../devkit/same-rows';
import { DATASETS, spiderDatabasePath } from '../devkit/datasets';
import { findPostgresBinaries, startPostgres } from '../devkit/postgres';
import { loadSpiderIntoPostgres } from '../devkit/spider-to-postgres';

/**
 * How much of Spider dev's gold SQL PostgreSQL accepts, and whether what it accepts answers as
 * on SQLite (the README's figures): every dev database is copied into a throw-away PostgreSQL
 * server from Debian's packages (as the tests do), each gold query runs on both, and refusals
 * are counted by the server's reason. `npx tsx scripts/spider-dev-on-postgres.ts` (needs `pg`).
 */
async function main(): Promise<void> {
  const binaries = findPostgresBinaries();
  if ('missing' in binaries) throw new Error(binaries.missing);
  const server = await startPostgres(binaries);
  const pool = new SqliteProcessPool({ size: 1 });
  const gold = readGoldFile(path.join(DATASETS, 'spider', 'dev_gold.sql'));
  const missing = [...new Set(gold.map((g) => g.dbId))].filter((db) => !existsSync(spiderDatabasePath(db)));
  const totals = { questions: 0, accepted: 0, sameRows: 0, otherRows: 0, refused: 0, skippedNoDatabase: gold.filter((g) => missing.includes(g.dbId)).length };
  const reasons: Record<string, number> = {};
  const otherRows: string[] = [];
  const limits = { timeoutMs: 30_000, maxRows: 1_000_000 };
  try {
    for (const name of [...new Set(gold.map((g) => g.dbId))].filter((db) => !missing.includes(db))) {
      const loaded = await loadSpiderIntoPostgres(spiderDatabasePath(name), server.url, { database: name.toLowerCase() });
      const db = await PostgresDatabase.connect(loaded.url, { onAccountWarning: () => {} });
      const lite = new SqliteDatabase(spiderDatabasePath(name), { pool });
      for (const { sql } of gold.filter((g) => g.dbId === name)) {
        totals.questions++;
        const outcome = await db.execute(sql, limits).catch((err: Error) => err);
        if (outcome instanceof Error) {
          totals.refused++;
          // The reason without the names and values in it, so like refusals count together.
          const reason = outcome.message.replace(/"[^"]*"/g, '"…"').replace(/\(.*\)/, '(…)');
          reasons[reason] = (reasons[reason] ?? 0) + 1;
          continue;
        }
        totals.accepted++;
        if (sameRowMultiset((await lite.execute(sql, limits)).rows, outcome.rows)) totals.sameRows++;
        else otherRows.push(`${name}: ${sql}`);
      }
      totals.otherRows = otherRows.length;
      await db.close();
    }
    console.log(JSON.stringify({ ...totals, missingDatabases: missing }, null, 2));
    console.log(Object.entries(reasons).sort((a, b) => b[1] - a[1]));
    console.log(otherRows.join('\n'));
  } finally {
    await pool.close();
    await server.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
