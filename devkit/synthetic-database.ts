import Database from 'better-sqlite3';
import path from 'node:path';

/**
 * A database big enough that profiling takes a while (for the resume test and demonstration):
 * `tables` tables of `columns` columns and `rows` rows; most columns are text with many
 * distinct values (each costs a GROUP BY over the table), some are small categories. Content is
 * a fixed function of the position, so the file is the same every time.
 */
export function createSyntheticDatabase(dir: string, options: { tables: number; columns: number; rows: number; name?: string }): string {
  const file = path.join(dir, `${options.name ?? 'synthetic'}.sqlite`);
  const db = new Database(file);
  try {
    db.pragma('journal_mode = OFF');
    db.pragma('synchronous = OFF');
    for (let t = 0; t < options.tables; t++) {
      const names = Array.from({ length: options.columns }, (_, c) => `t${t}_col_${c}`);
      db.exec(`CREATE TABLE table_${t} (id INTEGER PRIMARY KEY, ${names.map((n) => `${n} TEXT`).join(', ')})`);
      const insert = db.prepare(`INSERT INTO table_${t} VALUES (?, ${names.map(() => '?').join(', ')})`);
      db.transaction(() => {
        for (let r = 0; r < options.rows; r++) {
          insert.run(r, ...names.map((_, c) => (c % 5 === 4 ? `category ${(r * 7 + c) % 11}` : `value ${t}-${c}-${(r * 2654435761) % 1_000_003}`)));
        }
      })();
    }
  } finally {
    db.close();
  }
  return file;
}
