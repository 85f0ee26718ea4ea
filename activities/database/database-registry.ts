import type { TargetDatabase } from './target-database';

/**
 * Keeps one open handle per database spec for the life of a worker, so connection pools and
 * SQLite executor processes are started once, not per activity.
 */
export class DatabaseRegistry {
  private readonly open = new Map<string, Promise<TargetDatabase>>();

  constructor(private readonly opener: (spec: string) => Promise<TargetDatabase>) {}

  get(spec: string): Promise<TargetDatabase> {
    let db = this.open.get(spec);
    if (!db) {
      db = this.opener(spec);
      // A failed open is not cached: the user may create the file and retry.
      db.catch(() => this.open.delete(spec));
      this.open.set(spec, db);
    }
    return db;
  }

  async closeAll(): Promise<void> {
    const all = [...this.open.values()];
    this.open.clear();
    await Promise.all(all.map(async (p) => (await p.catch(() => null))?.close()));
  }
}
