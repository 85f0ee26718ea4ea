import { ApplicationFailure } from '@temporalio/common';
import { redactDatabaseSpec } from '../../core/database-reference';
import type { TargetDatabase } from './target-database';

/**
 * Keeps one open handle per database reference for the life of a worker, so connection pools
 * and SQLite executor processes are started once, not per activity. The opener resolves the
 * reference to what opens the database (credentials come from the worker's configuration, see
 * DatabaseConnections).
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

  /** For activities: a database that cannot be opened is a permanent failure (a missing file or a refused login does not fix itself). */
  async openOrFail(reference: string): Promise<TargetDatabase> {
    try {
      return await this.get(reference);
    } catch (err) {
      throw ApplicationFailure.nonRetryable(`cannot open database ${redactDatabaseSpec(reference)}: ${(err as Error).message}`, 'DatabaseUnavailable');
    }
  }

  async closeAll(): Promise<void> {
    const all = [...this.open.values()];
    this.open.clear();
    await Promise.all(all.map(async (p) => (await p.catch(() => null))?.close()));
  }
}
