import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { CosineIndex } from './cosine-index';
import { decodeVectorBlob, encodeScaledVectorBlob, type BlobScratch } from './vector-blob';
import { type Payload, type SearchHit, type SearchOptions, type VectorPoint, type VectorStore, VectorStoreError } from './vector-store';
import {
  assertCollectionName,
  assertDimension,
  assertPayload,
  assertSearchOptions,
  assertUniqueIds,
  scaledCopy,
  toUnitVector,
  unitScale,
} from './vector-validation';

/**
 * The default vector store: no server, persisted in one SQLite file under `directory`, searched
 * exactly in memory (see CosineIndex).
 *
 * Why SQLite (better-sqlite3) rather than hand-written binary files: upsert-by-id, atomic
 * batches and crash safety come for free, a batch of 1,000 points commits in about a
 * millisecond, and other processes (several Temporal workers on one machine) can read and
 * write the same directory. Each collection is its own table, so loading one is a sequential
 * scan and deleting one is a DROP.
 *
 * Writes go to SQLite first and then to the in-memory index, if that collection is loaded.
 * A collection is loaded on its first search. Every write bumps its collection's `version`;
 * when another connection has committed (SQLite's `data_version` changed), the loaded
 * collections whose version moved are dropped and reloaded on next use, the others kept.
 */
export const EMBEDDED_STORE_FILE = 'vectors.sqlite';

interface CollectionState {
  /** Key in the `collections` table; the points live in table `points_<key>`. */
  key: number;
  dimension: number;
  /** The collection's write counter when `index` was last in step with the file. */
  version: number;
  /** Loaded lazily by search. */
  index?: CosineIndex;
  upsertStatement?: Database.Statement;
}

export class EmbeddedVectorStore implements VectorStore {
  private readonly db: Database.Database;
  private readonly dataVersionStatement: Database.Statement;
  private readonly collections = new Map<string, CollectionState>();
  private seenDataVersion: number;
  private closed = false;
  /** Where upsert writes each vector's blob before binding it (see encodeScaledVectorBlob). */
  private readonly blobScratch: BlobScratch = { bytes: Buffer.alloc(0) };

  constructor(readonly directory: string) {
    mkdirSync(directory, { recursive: true });
    this.db = new Database(join(directory, EMBEDDED_STORE_FILE));
    // WAL: readers never block the writer; NORMAL sync is crash-safe for the application
    // (only a power cut can lose the last commits, and an index can be rebuilt).
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma('busy_timeout = 10000');
    // SQLite's own 2 MB page cache, not the 16 MB better-sqlite3 builds in: searches read a
    // collection once into memory (CosineIndex) and writes append, so a large cache only held
    // pages already written (bench:prepare: part of 9 MB of the worker's peak, with the artifact store's).
    this.db.pragma('cache_size = -2048');
    this.db.exec(
      'CREATE TABLE IF NOT EXISTS collections (' +
        'key INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, dimension INTEGER NOT NULL, ' +
        'version INTEGER NOT NULL DEFAULT 0)',
    );
    // Checked before every operation, so prepared once.
    this.dataVersionStatement = this.db.prepare('PRAGMA data_version').pluck();
    this.seenDataVersion = this.dataVersion();
  }

  async ensureCollection(name: string, dimension: number): Promise<void> {
    this.assertOpen();
    assertCollectionName(name);
    assertDimension(dimension);
    this.forgetIfOthersWrote();
    const create = this.db.transaction(() => {
      const existing = this.readCollection(name);
      if (existing) return existing;
      const key = Number(this.db.prepare('INSERT INTO collections (name, dimension) VALUES (?, ?)').run(name, dimension).lastInsertRowid);
      this.db.exec(`CREATE TABLE ${pointsTable(key)} (id TEXT PRIMARY KEY, vector BLOB NOT NULL, payload TEXT NOT NULL)`);
      return { key, dimension, version: 0 };
    });
    // IMMEDIATE takes the write lock first, so two processes cannot both create the table.
    const state = create.immediate();
    if (state.dimension !== dimension) {
      throw new VectorStoreError(`collection ${name} exists with dimension ${state.dimension}, asked for ${dimension}`);
    }
    if (!this.collections.has(name)) this.collections.set(name, state);
  }

  async upsert(collection: string, points: VectorPoint[]): Promise<void> {
    const state = this.requireCollection(collection);
    if (points.length === 0) return;
    assertUniqueIds(
      points.map((p) => p.id),
      collection,
    );
    // Validate and normalise everything before writing anything: a batch lands whole or not at all.
    // Only checked and scaled here; each blob is written into one reused buffer as it is bound.
    const rows = points.map((point) => {
      const what = `point ${JSON.stringify(point.id)} in ${collection}`;
      assertPayload(point.payload, what);
      return { id: point.id, vector: point.vector, scale: unitScale(point.vector, state.dimension, what), payload: JSON.stringify(point.payload) };
    });
    state.upsertStatement ??= this.db.prepare(
      `INSERT INTO ${pointsTable(state.key)} (id, vector, payload) VALUES (?, ?, ?) ` +
        'ON CONFLICT (id) DO UPDATE SET vector = excluded.vector, payload = excluded.payload',
    );
    const statement = state.upsertStatement;
    const version = this.db.transaction(() => {
      for (const row of rows) {
        statement.run(row.id, encodeScaledVectorBlob(row.vector, row.scale, this.blobScratch), row.payload);
      }
      return this.db.prepare('UPDATE collections SET version = version + 1 WHERE key = ? RETURNING version').pluck().get(state.key) as number;
    })();
    // Another process may have written between our staleness check and this commit: then the
    // loaded index misses its points, so drop it rather than patch it.
    if (state.index && version !== state.version + 1) state.index = undefined;
    state.version = version;
    if (state.index) for (const row of rows) state.index.put(row.id, scaledCopy(row.vector, row.scale), JSON.parse(row.payload) as Payload);
  }

  async search(collection: string, vector: Float32Array | number[], options: SearchOptions): Promise<SearchHit[]> {
    const state = this.requireCollection(collection);
    assertSearchOptions(options.k, options.filter);
    const query = toUnitVector(vector, state.dimension, `query vector for ${collection}`);
    return this.loadIndex(state).search(query, options.k, options.filter);
  }

  async count(collection: string): Promise<number> {
    const state = this.requireCollection(collection);
    if (state.index) return state.index.size;
    const row = this.db.prepare(`SELECT count(*) AS n FROM ${pointsTable(state.key)}`).get() as { n: number };
    return row.n;
  }

  async payloads(collection: string): Promise<Omit<SearchHit, 'score'>[]> {
    const state = this.requireCollection(collection);
    const rows = this.db.prepare(`SELECT id, payload FROM ${pointsTable(state.key)} ORDER BY id`).all() as { id: string; payload: string }[];
    return rows.map((row) => ({ id: row.id, payload: JSON.parse(row.payload) as Payload }));
  }

  async deleteCollection(name: string): Promise<void> {
    this.assertOpen();
    assertCollectionName(name);
    this.forgetIfOthersWrote();
    this.db
      .transaction(() => {
        const existing = this.readCollection(name);
        if (!existing) return;
        this.db.exec(`DROP TABLE IF EXISTS ${pointsTable(existing.key)}`);
        this.db.prepare('DELETE FROM collections WHERE key = ?').run(existing.key);
      })
      .immediate();
    this.collections.delete(name);
  }

  async listCollections(): Promise<string[]> {
    this.assertOpen();
    const rows = this.db.prepare('SELECT name FROM collections ORDER BY name').all() as { name: string }[];
    return rows.map((row) => row.name);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.collections.clear();
    this.db.close();
  }

  private requireCollection(name: string): CollectionState {
    this.assertOpen();
    this.forgetIfOthersWrote();
    let state = this.collections.get(name);
    if (!state) {
      state = this.readCollection(name);
      if (!state) throw new VectorStoreError(`collection ${name} does not exist (call ensureCollection first)`);
      this.collections.set(name, state);
    }
    return state;
  }

  private readCollection(name: string): CollectionState | undefined {
    const row = this.db.prepare('SELECT key, dimension, version FROM collections WHERE name = ?').get(name) as
      { key: number; dimension: number; version: number } | undefined;
    return row ? { key: row.key, dimension: row.dimension, version: row.version } : undefined;
  }

  private loadIndex(state: CollectionState): CosineIndex {
    if (state.index) return state.index;
    const index = new CosineIndex(state.dimension);
    const vector = new Float32Array(state.dimension);
    const scratch = { bytes: new Uint8Array(0) };
    // Insertion order (rowid), said rather than left to the query plan: CosineIndex gives ties to the
    // earlier-inserted point, so a reload must see the points in the order they were written.
    const rows = this.db
      .prepare(`SELECT id, vector, payload FROM ${pointsTable(state.key)} ORDER BY rowid`)
      .raw()
      .iterate();
    for (const [id, blob, payload] of rows as Iterable<[string, Buffer, string]>) {
      try {
        decodeVectorBlob(blob, vector, scratch);
      } catch (error) {
        throw new VectorStoreError(`point ${JSON.stringify(id)} in ${this.directory}: ${(error as Error).message}`);
      }
      index.put(id, vector, JSON.parse(payload) as Payload);
    }
    state.index = index;
    return index;
  }

  /** Another connection committed: forget the collections it changed, deleted or recreated. */
  private forgetIfOthersWrote(): void {
    const version = this.dataVersion();
    if (version === this.seenDataVersion) return;
    this.seenDataVersion = version;
    const current = new Map<string, { key: number; version: number }>();
    const rows = this.db.prepare('SELECT name, key, version FROM collections').all() as {
      name: string;
      key: number;
      version: number;
    }[];
    for (const row of rows) current.set(row.name, row);
    for (const [name, state] of this.collections) {
      const now = current.get(name);
      if (!now || now.key !== state.key || now.version !== state.version) this.collections.delete(name);
    }
  }

  private dataVersion(): number {
    return this.dataVersionStatement.get() as number;
  }

  private assertOpen(): void {
    if (this.closed) throw new VectorStoreError(`embedded vector store at ${this.directory} is closed`);
  }
}

/** Table names come from integer keys only, never from user text, so interpolation is safe. */
function pointsTable(key: number): string {
  return `points_${key}`;
}
