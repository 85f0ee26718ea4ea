import { parseArgs } from 'node:util';
import { shippedSpiderDatabases } from '../devkit/spider-database-files';
import { redactDatabaseSpec } from '../core/database-reference';
import { datasetsRoot } from '../core/datasets/datasets-root';
import { loadSpiderIntoPostgres } from '../devkit/spider-to-postgres';

/**
 * Copies every Spider database that ships with data into a PostgreSQL server, one database per
 * db_id named exactly as it (cre_Doc_Template_Mgt keeps its capitals), tables and columns
 * lower-cased and typed from their values as the tests load them (devkit/spider-to-postgres.ts),
 * so that
 *
 *   npx tsx scripts/load-spider-into-postgres.ts postgres://postgres@127.0.0.1:5432/postgres [--reader decodex_reader] [--only a,b]
 *   npx decodex bench --dataset spider-dev --gold-as-prediction --databases 'postgres://decodex_reader@127.0.0.1:5432/{db_id}'
 *
 * evaluates Spider on PostgreSQL. The URL is an account that may create databases; a database of
 * the same name is replaced. `--reader` names an existing role that is granted SELECT on every
 * table and gets the reader settings (devkit/postgres-reader.ts: read-only transactions,
 * statement_timeout, temp_file_limit; that takes a superuser's URL) (README, "A read-only
 * PostgreSQL account"), for decodex to read with. Prints `name: value` lines.
 */
async function main(): Promise<void> {
  const { positionals, values } = parseArgs({ allowPositionals: true, options: { only: { type: 'string' }, reader: { type: 'string' } } });
  const server = positionals[0];
  if (!server) throw new Error('usage: load-spider-into-postgres.ts postgres://user@host:port/postgres [--reader ROLE] [--only db_a,db_b]');
  const only = values.only?.split(',');
  const databases = shippedSpiderDatabases(datasetsRoot(process.env)).filter((d) => !only || only.includes(d.dbId));
  const started = performance.now();
  let skipped = 0;
  for (const { dbId, file } of databases) {
    const loaded = await loadSpiderIntoPostgres(file, server, { database: dbId, reader: values.reader });
    // Spider breaks some of its own keys; the copy is complete without them, and they are said.
    for (const s of loaded.skipped) console.error(`${dbId}: skipped ${s}`);
    skipped += loaded.skipped.length;
  }
  console.log(`server: ${redactDatabaseSpec(server)}`);
  console.log(`databases_loaded: ${databases.length}`);
  console.log(`constraints_skipped: ${skipped}`);
  console.log(`load_seconds: ${((performance.now() - started) / 1000).toFixed(1)}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
