/**
 * How often the question checks (activities/correction/checks, `correction.questionChecks`) fire
 * on gold SQL: every Spider train question whose gold query runs on its database, checked as if
 * it were a candidate. Gold answers what was asked, so each firing is a false alarm that would
 * send a right query to the reviser. Train only: these checks were tuned on it.
 *
 *   npm run bench:question-checks              # name: value lines on stdout
 *   npm run bench:question-checks -- --show    # also every firing on stderr
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
  const databases = new Map<string, { db: SqliteDatabase; schema: SchemaInfo; hint: SchemaHint } | null>();
  const open = async (file: string): Promise<{ db: SqliteDatabase; schema: SchemaInfo; hint: SchemaHint } | null> => {
    if (!existsSync(file)) return null;
    const db = new SqliteDatabase(file);
    const schema = await db.schema();
    return { db, schema, hint: schemaHintOf(schema) };
  };
  const fires = new Map<string, number>();
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
      if (values.show) console.error(`[${finding.check}] ${item.SpiderQuestion}\n  ${item.query}\n  ${finding.message}`);
    }
  }
  for (const opened of databases.values()) await opened?.db.close();
  console.log(`gold_queries_checked_spider_train: ${checked}`);
  for (const check of QUESTION_CHECK_NAMES) {
    const n = fires.get(check) ?? 0;
    console.log(`fires_${check.replace(/-/g, '_')}_spider_train: ${n}`);
    console.log(`false_alarm_rate_${check.replace(/-/g, '_')}_spider_train: ${(n / Math.max(1, checked)).toFixed(4)}`);
  }
  process.exit(0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
