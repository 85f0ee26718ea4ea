import Database from 'better-sqlite3';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { datasetsRoot } from '../core/datasets/datasets-root';

/** At most this many distinct values per column, as DexterSQL §3.1.2 bounds the value index. */
const VALUES_PER_COLUMN = 10_000;

export interface ColumnValue {
  db: string;
  table: string;
  column: string;
  value: string;
}

function quote(identifier: string): string {
  return `"${identifier.replace(/"/g, '""')}"`;
}

/** Distinct non-empty text cells of every shipped Spider database, database by database, up to `limit` values. */
export function collectSpiderValues(limit = Number.POSITIVE_INFINITY): ColumnValue[] {
  const root = join(datasetsRoot(), 'spider', 'database');
  const values: ColumnValue[] = [];
  for (const db of readdirSync(root).sort()) {
    const file = join(root, db, `${db}.sqlite`);
    if (!existsSync(file)) continue;
    const sqlite = new Database(file, { readonly: true, fileMustExist: true });
    try {
      const tables = sqlite.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").pluck().all() as string[];
      for (const table of tables) {
        const columns = (sqlite.pragma(`table_info(${quote(table)})`) as { name: string }[]).map((c) => c.name);
        for (const column of columns) {
          const cells = sqlite
            .prepare(
              `SELECT DISTINCT ${quote(column)} FROM ${quote(table)} ` +
                `WHERE typeof(${quote(column)}) = 'text' AND trim(${quote(column)}) <> '' LIMIT ${VALUES_PER_COLUMN}`,
            )
            .pluck()
            .all() as string[];
          for (const value of cells) {
            values.push({ db, table, column, value });
            if (values.length >= limit) return values;
          }
        }
      }
    } catch (error) {
      // A few Spider files have tables whose declared columns do not match their data; skip them.
      console.error(`skipped ${db}: ${(error as Error).message}`);
    } finally {
      sqlite.close();
    }
  }
  return values;
}

/** Repeats the collected values with a suffix when the corpus is smaller than asked. */
export function padTo(values: ColumnValue[], count: number): ColumnValue[] {
  const padded = values.slice(0, count);
  for (let round = 1; padded.length < count; round++) {
    for (const v of values) {
      if (padded.length >= count) break;
      padded.push({ ...v, value: `${v.value} ${round}` });
    }
  }
  return padded;
}

/** A question-like literal: lower-cased, one interior letter dropped (a typo). */
export function asQuestionLiteral(value: string, seed: number): string {
  const lower = value.toLowerCase();
  if (lower.length < 5) return lower;
  const drop = 1 + (seed % (lower.length - 2));
  return lower.slice(0, drop) + lower.slice(drop + 1);
}
