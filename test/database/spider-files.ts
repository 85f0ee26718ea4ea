import { createHash } from 'node:crypto';
import { copyFileSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';

import { DATASETS, spiderDatabasePath } from '../../devkit/datasets';

export const SPIDER_DIR = path.join(DATASETS, 'spider');
export const spiderDbPath = spiderDatabasePath;

const created: string[] = [];

/** A fresh temp dir, removed by removeTempDirs() (call it in afterAll). */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), `decodex-${prefix}-`));
  created.push(dir);
  return dir;
}

export function removeTempDirs(): void {
  for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** A private copy of a Spider database, so a test that fails to protect it harms nothing shared. */
export function copySpiderDb(name: string, dir: string = tempDir(name)): string {
  const copy = path.join(dir, `${name}.sqlite`);
  copyFileSync(spiderDbPath(name), copy);
  return copy;
}

export function sha256(file: string): string {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

/** Every file in the directory with its hash: catches journals, WAL files and attached databases too. */
export function directoryFingerprint(dir: string): Record<string, string> {
  return Object.fromEntries(
    readdirSync(dir)
      .sort()
      .map((f) => [f, sha256(path.join(dir, f))]),
  );
}

/** Spider dev gold SQL for one database: lines `SQL<TAB>db_id`. */
export function devGoldSql(db: string): string[] {
  return readFileSync(path.join(SPIDER_DIR, 'dev_gold.sql'), 'utf8')
    .split('\n')
    .map((line) => line.split('\t'))
    .filter((parts) => parts.length === 2 && parts[1].trim() === db)
    .map((parts) => parts[0]);
}

/** Number of SQLite storage classes in a column of a SQLite file (0 or 1: one kind of value); `close` when done. */
export function storageClassCounter(file: string) {
  const sqlite = new Database(file, { readonly: true });
  const q = (s: string) => `"${s.replace(/"/g, '""')}"`;
  const count = (table: string, column: string): number =>
    (sqlite
      .prepare(`SELECT count(DISTINCT typeof(${q(column)})) FROM ${q(table)} WHERE ${q(column)} IS NOT NULL`)
      .pluck()
      .get() as number) ?? 0;
  return Object.assign(count, { close: () => sqlite.close() });
}
