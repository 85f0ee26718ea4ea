/**
 * How well the `column-of-other-table` check and its rewrite (`correction.qualifierFixes`) undo
 * the commonest execution error of a small model over joins: a column named through the wrong
 * table's alias. Every Spider train gold query that runs and names two or more tables by alias
 * is broken the way the model breaks them: the first qualified column that only its own table
 * has is written through another alias of the query (`T1.Name` → `T2.Name`). Then: does the
 * check fire, is a rewrite offered, and does the rewritten query return gold's result? Train
 * only, and the breaking is independent of the check's own alias reading (a regular expression
 * over `table AS alias`).
 *
 * The second study breaks gold the other way a small model does: it forgets a lookup table. A gold
 * query that joins a table through a foreign key of another (`JOIN Sizes AS T2 ON T1.size_code =
 * T2.size_code`), and reads only columns no other table of the schema has from it, loses that
 * join and reads them through the other alias (`T1.size_description`). Are the plain-code fixes,
 * round after round as correction applies them (at most 3), given back gold's result?
 *
 *   npm run bench:code-fixes              # name: value lines on stdout
 *   npm run bench:code-fixes -- --show    # also every broken query the rewrite did not restore
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { runChecks } from '../activities/correction/checks';
import { SqliteDatabase } from '../activities/database/sqlite-database';
import { schemaHintOf, sharedSqlAnalyzer } from '../activities/sql/shared-analyzer';
import { datasetsRoot } from '../core/datasets/datasets-root';
import type { SchemaInfo } from '../core/database/schema-types';
import type { SchemaHint } from '../core/sql-analysis';
import type { SqlRow } from '../core/sql-value';

interface TrainItem {
  query: string;
  db_id: string;
}

interface Opened {
  db: SqliteDatabase;
  schema: SchemaInfo;
  hint: SchemaHint;
}

const ALIAS = /\b([A-Za-z_][A-Za-z0-9_]*)\s+AS\s+([A-Za-z_][A-Za-z0-9_]*)\b/gi;

/** Gold with one column moved to another alias of the query, or null when it has no such column. */
function breakQualifier(sql: string, schema: SchemaInfo): { broken: string; from: string; to: string } | null {
  const table = (name: string) => schema.tables.find((t) => t.name.toLowerCase() === name.toLowerCase());
  const aliases = new Map<string, string>(); // alias (lower case) -> schema table name
  for (const [, name, alias] of sql.matchAll(ALIAS)) {
    const t = table(name);
    if (t) aliases.set(alias.toLowerCase(), t.name);
  }
  if (aliases.size < 2) return null;
  const has = (tableName: string, column: string) => Boolean(table(tableName)?.columns.some((c) => c.name.toLowerCase() === column.toLowerCase()));
  for (const [, alias, column] of sql.matchAll(/\b([A-Za-z_][A-Za-z0-9_]*)\.([A-Za-z_][A-Za-z0-9_]*)\b/g)) {
    const own = aliases.get(alias.toLowerCase());
    if (!own) continue;
    const holders = [...new Set(aliases.values())].filter((t) => has(t, column));
    if (holders.length !== 1) continue;
    const other = [...aliases.entries()].find(([, t]) => !has(t, column));
    if (!other) continue;
    const pattern = new RegExp(`\\b${alias}\\.${column}\\b`, 'g');
    const otherAlias = sql.match(new RegExp(`\\bAS\\s+(${other[0]})\\b`, 'i'))?.[1] ?? other[0];
    return { broken: sql.replace(pattern, `${otherAlias}.${column}`), from: `${alias}.${column}`, to: `${otherAlias}.${column}` };
  }
  return null;
}

const JOIN_ON =
  /\s+(?:INNER\s+)?JOIN\s+([A-Za-z_][A-Za-z0-9_]*)\s+AS\s+([A-Za-z_][A-Za-z0-9_]*)\s+ON\s+([A-Za-z_][A-Za-z0-9_]*)\.([A-Za-z_][A-Za-z0-9_]*)\s*=\s*([A-Za-z_][A-Za-z0-9_]*)\.([A-Za-z_][A-Za-z0-9_]*)/gi;

/** Gold without a lookup table's join, its columns read through the table whose key led there; null when it has none. */
function dropLookupJoin(sql: string, schema: SchemaInfo): string | null {
  const table = (name: string) => schema.tables.find((t) => t.name.toLowerCase() === name.toLowerCase());
  const aliases = new Map<string, string>();
  for (const [, name, alias] of sql.matchAll(ALIAS)) if (table(name)) aliases.set(alias.toLowerCase(), table(name)!.name);
  const holders = (column: string) => schema.tables.filter((t) => t.columns.some((c) => c.name.toLowerCase() === column.toLowerCase()));
  for (const m of sql.matchAll(JOIN_ON)) {
    const [clause, name, alias, a1, c1, a2, c2] = m;
    const lookup = table(name);
    const [otherAlias, key, lookupKey] = a2.toLowerCase() === alias.toLowerCase() ? [a1, c1, c2] : [a2, c2, c1];
    const from = aliases.get(otherAlias.toLowerCase());
    if (!lookup || !from || from === lookup.name) continue;
    const keys = table(from)!.foreignKeys.filter((k) => k.toTable.toLowerCase() === lookup.name.toLowerCase());
    if (keys.length !== 1 || keys[0].fromColumns[0]?.toLowerCase() !== key.toLowerCase()) continue;
    const rest = sql.replace(clause, '');
    const uses = [...rest.matchAll(new RegExp(`\\b${alias}\\.([A-Za-z_][A-Za-z0-9_]*)\\b`, 'gi'))].map((u) => u[1]);
    if (!uses.length || uses.some((c) => holders(c).length !== 1 || c.toLowerCase() === lookupKey.toLowerCase())) continue;
    if (new RegExp(`\\b${alias}\\b(?!\\.)`, 'i').test(rest)) continue; // the alias used other than as a qualifier
    return rest.replace(new RegExp(`\\b${alias}\\.`, 'g'), `${otherAlias}.`);
  }
  return null;
}

async function rows(db: SqliteDatabase, sql: string): Promise<SqlRow[] | null> {
  try {
    return (await db.execute(sql, { timeoutMs: 10_000, maxRows: 1000 })).rows;
  } catch {
    return null;
  }
}

const sameRows = (a: SqlRow[], b: SqlRow[]) =>
  JSON.stringify(a.map((r) => JSON.stringify(r)).sort()) === JSON.stringify(b.map((r) => JSON.stringify(r)).sort());

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { show: { type: 'boolean', default: false } } });
  const root = datasetsRoot(process.env);
  const items = JSON.parse(readFileSync(path.join(root, 'spider-syn', 'train_spider.json'), 'utf8')) as TrainItem[];
  const analyzer = await sharedSqlAnalyzer();
  const databases = new Map<string, Opened | null>();
  const open = async (id: string): Promise<Opened | null> => {
    const file = path.join(root, 'spider', 'database', id, `${id}.sqlite`);
    if (!existsSync(file)) return null;
    const db = new SqliteDatabase(file);
    const schema = await db.schema();
    return { db, schema, hint: schemaHintOf(schema) };
  };
  const counts = { broken: 0, fired: 0, offered: 0, restored: 0, singleSelect: 0, singleSelectOffered: 0 };
  for (const item of items) {
    if (!databases.has(item.db_id)) databases.set(item.db_id, await open(item.db_id));
    const opened = databases.get(item.db_id);
    if (!opened) continue;
    const { db, schema, hint } = opened;
    const gold = await rows(db, item.query);
    if (!gold) continue;
    const broke = breakQualifier(item.query, schema);
    if (!broke) continue;
    let message: string;
    try {
      await db.execute(broke.broken, { timeoutMs: 10_000, maxRows: 1 });
      continue; // it still runs (SQLite resolved the name some other way): not the error studied here
    } catch (err) {
      message = (err as Error).message;
    }
    counts.broken++;
    const single = (broke.broken.match(/\bselect\b/gi) ?? []).length === 1;
    if (single) counts.singleSelect++;
    const analyze = (sql: string) => analyzer.analyze(sql, 'sqlite', hint);
    const execution = { ok: false as const, kind: 'sql_error', message };
    const finding = runChecks({ question: '', sql: broke.broken, schema, analysis: analyze(broke.broken), analyze, execution }).find(
      (f) => f.check === 'column-of-other-table',
    );
    if (!finding) {
      if (values.show) console.error(`[not fired] ${broke.broken}\n  ${message}`);
      continue;
    }
    counts.fired++;
    if (!finding.fix) continue;
    counts.offered++;
    if (single) counts.singleSelectOffered++;
    const fixed = await rows(db, finding.fix.sql);
    if (fixed && sameRows(fixed, gold)) counts.restored++;
    else if (values.show) console.error(`[not restored] ${broke.broken}\n  fix: ${finding.fix.sql}\n  gold: ${item.query}`);
  }
  // The second study: a lookup table's join dropped.
  const dropped = { broken: 0, offered: 0, restored: 0 };
  for (const item of items) {
    const opened = databases.get(item.db_id);
    if (!opened) continue;
    const { db, schema, hint } = opened;
    const broken = dropLookupJoin(item.query, schema);
    if (!broken || (await rows(db, broken))) continue;
    const gold = await rows(db, item.query);
    if (!gold) continue;
    dropped.broken++;
    const analyze = (sql: string) => analyzer.analyze(sql, 'sqlite', hint);
    let sql = broken;
    let fixedRows: SqlRow[] | null = null;
    for (let round = 1; round <= 3 && !fixedRows; round++) {
      let message = '';
      try {
        await db.execute(sql, { timeoutMs: 10_000, maxRows: 1 });
      } catch (err) {
        message = (err as Error).message;
      }
      const execution = { ok: false as const, kind: 'sql_error', message };
      const fix = runChecks({ question: '', sql, schema, analysis: analyze(sql), analyze, execution }).find((f) => f.check === 'column-of-other-table')?.fix;
      if (!fix) break;
      if (round === 1) dropped.offered++;
      sql = fix.sql;
      fixedRows = await rows(db, sql);
    }
    if (fixedRows && sameRows(fixedRows, gold)) dropped.restored++;
    else if (values.show) console.error(`[join not restored] ${broken}\n  fixed: ${sql}\n  gold: ${item.query}`);
  }
  for (const opened of databases.values()) await opened?.db.close();
  const rate = (n: number, d: number) => (n / Math.max(1, d)).toFixed(4);
  console.log(`broken_gold_queries_spider_train: ${counts.broken}`);
  console.log(`finding_rate_spider_train: ${rate(counts.fired, counts.broken)}`);
  console.log(`fix_offered_rate_spider_train: ${rate(counts.offered, counts.broken)}`);
  console.log(`fix_offered_rate_single_select_spider_train: ${rate(counts.singleSelectOffered, counts.singleSelect)}`);
  console.log(`fix_restores_gold_rate_spider_train: ${rate(counts.restored, counts.offered)}`);
  console.log(`dropped_join_queries_spider_train: ${dropped.broken}`);
  console.log(`join_fix_offered_rate_spider_train: ${rate(dropped.offered, dropped.broken)}`);
  console.log(`join_fix_restores_gold_rate_spider_train: ${rate(dropped.restored, dropped.offered)}`);
  process.exit(0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
