import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { openSqliteArtifactStore } from '../../activities/artifacts/sqlite-artifact-store';
import { DatabaseRegistry } from '../../activities/database/database-registry';
import { openTargetDatabase } from '../../activities/database/open-database';
import { executeNode, INLINE_MAX_CHARS } from '../../activities/decomposition/execute-node';
import { forgetNodeResults, loadNodeResult } from '../../activities/decomposition/node-result-store';

/** One node's execution as the `executeNode` activity runs it: inputs resolved, rows stored by reference, failures judged. */
describe('executeNode', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'decodex-node-'));
  const file = path.join(dir, 'notes.sqlite');
  const db = new Database(file);
  db.exec(`CREATE TABLE note (id INTEGER PRIMARY KEY, body TEXT);`);
  const insert = db.prepare('INSERT INTO note VALUES (?, ?)');
  for (let i = 1; i <= 5; i++) insert.run(i, i <= 3 ? 'x'.repeat(20_000) : `short ${i}`);
  db.close();
  const store = openSqliteArtifactStore(path.join(dir, 'artifacts.sqlite'));
  const databases = new DatabaseRegistry((spec) => openTargetDatabase(spec));
  const deps = { databases, store };
  const base = { database: file, upstream: [], inlineRows: 100, timeoutMs: 5000, maxRows: 1000, maxCellBytes: 30_000 };
  afterAll(async () => {
    await databases.closeAll();
    await store.close();
  });

  it('few rows of long values go downstream as a relation, never as a huge value list', async () => {
    const run = await executeNode(deps, { ...base, node: { id: 3, question: 'bodies' }, sql: 'SELECT body FROM note WHERE id <= 3', resultKey: 'wf/run/n3-1' });
    expect(run.ok).toBe(true);
    expect(run.result).toMatchObject({ rowCount: 3, passedAs: 'relation' });
    expect(3 * 20_000).toBeGreaterThan(INLINE_MAX_CHARS);
    // The rows are in the store, not in what the workflow receives.
    expect((await loadNodeResult(store, 'wf/run/n3-1')).rows).toHaveLength(3);
    expect(JSON.stringify(run).length).toBeLessThan(2_000);
    // Cells are bounded in bytes like any result decodex keeps.
    const cut = await executeNode(deps, {
      ...base,
      maxCellBytes: 100,
      node: { id: 4, question: 'bodies' },
      sql: 'SELECT body FROM note WHERE id = 1',
      resultKey: 'wf/run/n4-1',
    });
    expect(cut.truncated).toBe(true);
    expect((await loadNodeResult(store, 'wf/run/n4-1')).rows[0][0]).toHaveLength(100);

    const downstream = await executeNode(deps, {
      ...base,
      node: { id: 0, question: 'count @[3]' },
      sql: 'SELECT COUNT(*) FROM note WHERE body IN @[3]',
      upstream: [run.result!],
      resultKey: 'wf/run/n0-1',
    });
    expect(downstream).toMatchObject({ ok: true, resolvedSql: 'SELECT COUNT(*) FROM note WHERE body IN (SELECT "body" FROM n3)', preview: [[3]] });
    // Self-contained: node 3's SQL became a CTE, so the composed query runs on its own.
    expect(downstream.composedSql).toBe(
      'WITH n3("body") AS (SELECT body FROM note WHERE id <= 3) SELECT COUNT(*) FROM note WHERE body IN (SELECT "body" FROM n3)',
    );
    const target = await databases.get(file);
    expect((await target.execute(downstream.composedSql, { timeoutMs: 5000, maxRows: 10 })).rows).toEqual([[3]]);
  });

  it('an error, no rows, or only NULLs is a failed node; an @[n] that is not an input is an error, not a crash', async () => {
    const error = await executeNode(deps, { ...base, node: { id: 1, question: 'q' }, sql: 'SELECT nope FROM note', resultKey: 'wf/run/n1-1' });
    expect(error).toMatchObject({ ok: false, failure: 'error', error: expect.stringMatching(/no such column: nope/) });
    expect(error.result).toBeUndefined();
    const empty = await executeNode(deps, { ...base, node: { id: 1, question: 'q' }, sql: 'SELECT id FROM note WHERE id > 99', resultKey: 'wf/run/n1-2' });
    expect(empty).toMatchObject({ ok: false, failure: 'empty', result: { rowCount: 0, passedAs: 'inline' } });
    const nulls = await executeNode(deps, { ...base, node: { id: 1, question: 'q' }, sql: 'SELECT NULL FROM note', resultKey: 'wf/run/n1-3' });
    expect(nulls).toMatchObject({ ok: false, failure: 'all-null' });
    const stray = await executeNode(deps, { ...base, node: { id: 1, question: 'q' }, sql: 'SELECT id FROM note WHERE id IN @[7]', resultKey: 'wf/run/n1-4' });
    expect(stray).toMatchObject({ ok: false, failure: 'error', error: expect.stringMatching(/@\[7\].*not one of this step's inputs/) });
    // A run's results are removed together.
    expect(await forgetNodeResults(store, 'wf/run/')).toBe(5); // n3-1, n4-1, n0-1, n1-2, n1-3
    expect(await store.list('dag-node-results', 'wf/run/')).toEqual([]);
  });
});
