/**
 * How often the question checks (activities/correction/checks, `correction.questionChecks`) fire
 * on gold SQL: every Spider train question whose gold query runs on its database, checked as if
 * it were a candidate. Gold answers what was asked, so each firing is a false alarm that would
 * send a right query to the reviser. Train only: these checks were tuned on it.
 *
 * And how often `unused-join` fires where it should: each single-table gold query is broken by
 * joining one table for nothing along a declared foreign key (chain 1), and two (chain 2: the
 * table, then one linked to it), which must still run; a query whose question names a joined
 * table is left out (the check stays silent there by design).
 *
 *   npm run bench:question-checks              # name: value lines on stdout
 *   npm run bench:question-checks -- --show    # also every firing, and every missed chain, on stderr
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { QUESTION_CHECK_NAMES, runChecks } from '../activities/correction/checks';
import { SqliteDatabase } from '../activities/database/sqlite-database';
import { schemaHintOf, sharedSqlAnalyzer } from '../activities/sql/shared-analyzer';
import { datasetsRoot } from '../core/datasets/datasets-root';
import type { SchemaInfo } from '../core/database/schema-types';
import type { SchemaHint } from '../core/sql-analysis';
import { mentions, nameWords, questionWords } from '../activities/correction/checks/question-words';

interface TrainItem {
  SpiderQuestion: string;
  query: string;
  db_id: string;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { show: { type: 'boolean', default: false } } });
  const root = datasetsRoot(process.env);
  const items = JSON.parse(readFileSync(path.join(root, 'spider-syn', 'train_spider.json'), 'utf8')) as TrainItem[];
  const analyzer = await sharedSqlAnalyzer();
  // Each database opened, its schema read and its analyzer hint built once, not once per question.
  const databases = new Map<string, Opened>();
  const open = async (file: string): Promise<{ db: SqliteDatabase; schema: SchemaInfo; hint: SchemaHint } | null> => {
    if (!existsSync(file)) return null;
    const db = new SqliteDatabase(file);
    const schema = await db.schema();
    return { db, schema, hint: schemaHintOf(schema) };
  };
  const fires = new Map<string, number>();
  // Gold queries a check's fix would rewrite (`correction.joinFixes`): each one a right answer made wrong.
  const rewrites = new Map<string, number>();
  let checked = 0;
  for (const item of items) {
    const file = path.join(root, 'spider', 'database', item.db_id, `${item.db_id}.sqlite`);
    if (!databases.has(item.db_id)) databases.set(item.db_id, await open(file));
    const opened = databases.get(item.db_id);
    if (!opened) continue;
    const { db, schema, hint } = opened;
    let execution;
    try {
      const result = await db.execute(item.query, { timeoutMs: 10_000, maxRows: 1000 });
      execution = { ok: true as const, columns: result.columns, rows: result.rows, truncated: result.truncated };
    } catch {
      continue; // gold that does not run on its database says nothing about the checks
    }
    const analyze = (sql: string) => analyzer.analyze(sql, 'sqlite', hint);
    const input = { question: item.SpiderQuestion, sql: item.query, schema, analysis: analyze(item.query), analyze, execution };
    checked++;
    const always = new Set(runChecks(input).map((f) => f.check));
    for (const finding of runChecks(input, { questionChecks: true }).filter((f) => !always.has(f.check))) {
      fires.set(finding.check, (fires.get(finding.check) ?? 0) + 1);
      if (finding.fix) rewrites.set(finding.check, (rewrites.get(finding.check) ?? 0) + 1);
      if (values.show) console.error(`[${finding.check}] ${item.SpiderQuestion}\n  ${item.query}\n  ${finding.message}`);
    }
  }
  const recall = await danglingJoinRecall(items, databases, analyzer, values.show);
  for (const opened of databases.values()) await opened?.db.close();
  console.log(`gold_queries_checked_spider_train: ${checked}`);
  for (const check of QUESTION_CHECK_NAMES) {
    const n = fires.get(check) ?? 0;
    console.log(`fires_${check.replace(/-/g, '_')}_spider_train: ${n}`);
    console.log(`false_alarm_rate_${check.replace(/-/g, '_')}_spider_train: ${(n / Math.max(1, checked)).toFixed(4)}`);
  }
  for (const check of ['unused-join', 'borrowed-column']) console.log(`gold_rewritten_${check.replace(/-/g, '_')}_spider_train: ${rewrites.get(check) ?? 0}`);
  for (const [chain, { broken, fired, restored }] of recall) {
    console.log(`dangling_join_chain_${chain}_queries_spider_train: ${broken}`);
    console.log(`fires_unused_join_chain_${chain}_spider_train: ${(fired / Math.max(1, broken)).toFixed(4)}`);
    console.log(`fix_restores_gold_unused_join_chain_${chain}_spider_train: ${(restored / Math.max(1, broken)).toFixed(4)}`);
  }
  process.exit(0);
}

type Opened = { db: SqliteDatabase; schema: SchemaInfo; hint: SchemaHint } | null;

/** Tables linked to `table` by a declared foreign key (either way), with the join condition. */
function neighbours(schema: SchemaInfo, table: string): { table: string; on: string }[] {
  const out: { table: string; on: string }[] = [];
  for (const t of schema.tables)
    for (const fk of t.foreignKeys) {
      if (fk.fromColumns.length !== 1) continue;
      const on = `"${fk.fromTable}"."${fk.fromColumns[0]}" = "${fk.toTable}"."${fk.toColumns[0]}"`;
      if (fk.fromTable.toLowerCase() === table.toLowerCase() && fk.toTable.toLowerCase() !== table.toLowerCase()) out.push({ table: fk.toTable, on });
      else if (fk.toTable.toLowerCase() === table.toLowerCase() && fk.fromTable.toLowerCase() !== table.toLowerCase()) out.push({ table: fk.fromTable, on });
    }
  return out;
}

/** Per chain length (1, 2): how many broken queries ran, and on how many `unused-join` fired. */
async function danglingJoinRecall(
  items: TrainItem[],
  databases: Map<string, Opened>,
  analyzer: Awaited<ReturnType<typeof sharedSqlAnalyzer>>,
  show: boolean,
): Promise<Map<number, { broken: number; fired: number; restored: number }>> {
  const tally = new Map([1, 2].map((n) => [n, { broken: 0, fired: 0, restored: 0 }]));
  for (const item of items) {
    const opened = databases.get(item.db_id);
    if (!opened) continue;
    // One SELECT over one table named without an alias: `FROM t` then a clause or the end.
    const from = /\bFROM\s+(\w+)(?=\s+(?:WHERE|GROUP|ORDER|LIMIT)\b|\s*;?\s*$)/i.exec(item.query);
    if (!from || /\bJOIN\b|\(\s*SELECT\b|\b(UNION|INTERSECT|EXCEPT)\b|\bcount\s*\(|\bgroup\s+by\b/i.test(item.query)) continue;
    const { db, schema, hint } = opened;
    const base = schema.tables.find((t) => t.name.toLowerCase() === from[1].toLowerCase());
    if (!base) continue;
    const words = questionWords(item.SpiderQuestion);
    const named = (table: string) => nameWords(table).some((w) => mentions(words, w));
    const first = neighbours(schema, base.name).find((n) => !named(n.table));
    if (!first) continue;
    const second = neighbours(schema, first.table).find((n) => n.table.toLowerCase() !== base.name.toLowerCase() && !named(n.table));
    const chains = [`JOIN "${first.table}" ON ${first.on}`, ...(second ? [`JOIN "${first.table}" ON ${first.on} JOIN "${second.table}" ON ${second.on}`] : [])];
    for (const [i, joins] of chains.entries()) {
      const sql = `${item.query.slice(0, from.index)}FROM "${base.name}" ${joins}${item.query.slice(from.index + from[0].length)}`;
      let execution;
      try {
        const result = await db.execute(sql, { timeoutMs: 10_000, maxRows: 1000 });
        execution = { ok: true as const, columns: result.columns, rows: result.rows, truncated: result.truncated };
      } catch {
        continue; // an ambiguous column, say: not the mistake measured here
      }
      const analyze = (text: string) => analyzer.analyze(text, 'sqlite', hint);
      const findings = runChecks({ question: item.SpiderQuestion, sql, schema, analysis: analyze(sql), analyze, execution }, { questionChecks: true });
      const counts = tally.get(i + 1)!;
      counts.broken++;
      const finding = findings.find((f) => f.check === 'unused-join');
      if (finding) counts.fired++;
      else if (show) console.error(`[unused-join missed, chain ${i + 1}] ${item.SpiderQuestion}\n  ${sql}`);
      if (finding?.fix && (await sameRows(db, finding.fix.sql, item.query))) counts.restored++;
      else if (finding && show) console.error(`[unused-join fix missed, chain ${i + 1}] ${sql}\n  ${finding.fix?.sql ?? 'no fix offered'}`);
    }
  }
  return tally;
}

/** Whether two queries return the same rows, in any order (both must run). */
async function sameRows(db: SqliteDatabase, a: string, b: string): Promise<boolean> {
  const rows = async (sql: string) => (await db.execute(sql, { timeoutMs: 10_000, maxRows: 1000 })).rows.map((r) => JSON.stringify(r)).sort();
  try {
    return JSON.stringify(await rows(a)) === JSON.stringify(await rows(b));
  } catch {
    return false;
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
