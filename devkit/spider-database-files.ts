import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * The Spider databases that ship with data, `{ dbId, file }` by name: every folder of
 * spider/database whose `<db_id>.sqlite` is there and not empty (wta_1 ships without data, see the
 * datasets' SOURCES.md; an empty file may stand in for it).
 */
export function shippedSpiderDatabases(datasets: string): { dbId: string; file: string }[] {
  const root = path.join(datasets, 'spider', 'database');
  return readdirSync(root)
    .sort()
    .map((dbId) => ({ dbId, file: path.join(root, dbId, `${dbId}.sqlite`) }))
    .filter(({ file }) => existsSync(file) && statSync(file).size > 0);
}
