/**
 * Parse-rate benchmark that chooses the SQL analyzer (the one that parses the most gold SQL is
 * CHOSEN_SQL_ANALYZER): every gold query of Spider dev/train and BIRD dev through every
 * implementation, SQLite dialect.
 * A query counts as parsed only when the analysis is ok and names at least one table.
 *
 *   npx tsx bench/sql-parse.ts            # name: value lines on stdout
 *   npx tsx bench/sql-parse.ts --failures # also every failing query on stderr
 */
import { datasetsRoot } from '../core/datasets/datasets-root';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CHOSEN_SQL_ANALYZER, SQL_ANALYZER_FACTORIES } from '../core/sql-analysis/create-sql-analyzer';
import type { SqlAnalyzer } from '../core/sql-analysis/sql-analyzer';

const GOLD_FILES = [
  { key: 'spider_dev', file: 'spider/dev_gold.sql' },
  { key: 'spider_train', file: 'spider/train_gold.sql' },
  { key: 'bird_dev', file: 'bird/dev_gold.sql' },
];

interface Tally {
  parsed: number;
  total: number;
}

/** `SQL<TAB>db_id` per line; the db id is after the last tab. */
function readGoldSql(file: string): string[] {
  return readFileSync(path.join(datasetsRoot(), file), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => line.slice(0, line.lastIndexOf('\t') >= 0 ? line.lastIndexOf('\t') : line.length));
}

function parses(analyzer: SqlAnalyzer, sql: string): { ok: boolean; why: string } {
  const result = analyzer.analyze(sql, 'sqlite');
  if (!result.ok) return { ok: false, why: result.error.message.slice(0, 160) };
  if (result.tables.length === 0) return { ok: false, why: 'no table extracted' };
  return { ok: true, why: '' };
}

function rate(t: Tally): string {
  return (t.total === 0 ? 0 : t.parsed / t.total).toFixed(4);
}

async function main(): Promise<void> {
  const showFailures = process.argv.includes('--failures');
  const gold = GOLD_FILES.map((g) => ({ ...g, queries: readGoldSql(g.file) }));
  const overall = new Map<string, Tally>();

  for (const [name, create] of Object.entries(SQL_ANALYZER_FACTORIES)) {
    const analyzer = await create();
    const all: Tally = { parsed: 0, total: 0 };
    const started = process.hrtime.bigint();
    for (const { key, queries } of gold) {
      const tally: Tally = { parsed: 0, total: queries.length };
      for (const sql of queries) {
        const { ok, why } = parses(analyzer, sql);
        if (ok) tally.parsed++;
        else if (showFailures) process.stderr.write(`# ${name} ${key}: ${why} || ${sql}\n`);
      }
      console.log(`${name}_${key}_parse_rate: ${rate(tally)}`);
      all.parsed += tally.parsed;
      all.total += tally.total;
    }
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    console.log(`${name}_all_parse_rate: ${rate(all)}`);
    console.log(`${name}_total_seconds: ${seconds.toFixed(2)}`);
    overall.set(name, all);
  }
  console.log(`chosen_analyzer: ${CHOSEN_SQL_ANALYZER}`);
  console.log(`chosen_parse_rate: ${rate(overall.get(CHOSEN_SQL_ANALYZER)!)}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
