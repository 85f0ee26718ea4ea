import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { boundRowBytes } from '../../core/result-bytes';
import { runCli } from '../../devkit/run-cli';
import { startScriptedStack, type ScriptedStack } from '../support/scripted-stack';
import type { TestStack } from '../../devkit/test-workers';

/**
 * Issue 12, point 2: results are bounded in bytes, not only rows. 200 rows of 12,000 characters
 * (2.4 MB) used to fail the run with PayloadsTooLarge after re-running the query three times; now
 * the answer comes back cut to the byte limits, and says so. A run that fails prints its cause.
 */
const QUESTION = 'Show every note.';
const SQL = 'SELECT id, body FROM note';

describe('results bounded in bytes', () => {
  let scripted: ScriptedStack;
  let stack: TestStack;
  let file: string;

  beforeAll(async () => {
    file = path.join(mkdtempSync(path.join(os.tmpdir(), 'decodex-bytes-')), 'notes.sqlite');
    const db = new Database(file);
    db.exec('CREATE TABLE note (id INTEGER PRIMARY KEY, body TEXT)');
    const insert = db.prepare('INSERT INTO note VALUES (?, ?)');
    for (let i = 1; i <= 200; i++) insert.run(i, 'é'.repeat(6000)); // 12,000 bytes of UTF-8 each
    db.close();
    scripted = await startScriptedStack(new Map([[QUESTION, SQL]]));
    stack = scripted.stack;
  });
  afterAll(() => scripted?.stop());

  it('a 2.4 MB result is answered, cut to the byte limits, and the cut is marked', async () => {
    const { result } = await stack.client.ask({ question: QUESTION, database: file, preset: 'quick' });
    expect(result.outcome).toBe('answered');
    expect(result.truncated).toBe(true);
    expect(Buffer.byteLength(JSON.stringify(result.rows))).toBeLessThanOrEqual(256 * 1024);
    for (const [, body] of result.rows) {
      expect(Buffer.byteLength(body as string)).toBeLessThanOrEqual(4096);
      expect((body as string).endsWith('é')).toBe(true); // cut on a character boundary
    }
    expect(result.byteLimit).toMatchObject({ maxCellBytes: 4096, maxResultBytes: 256 * 1024, cutCells: result.rows.length });
    expect(result.byteLimit!.droppedRows).toBe(200 - result.rows.length);
    expect(result.rows.length).toBeGreaterThan(50);
    expect(result.trace.find((t) => t.stage === 'answer')?.outcome).toMatch(/cells cut to 4096 bytes/);
  });

  it('the byte limits are the caller’s to set, and nonsense is refused before a run starts', async () => {
    const { result } = await stack.client.ask({ question: QUESTION, database: file, preset: 'quick', limits: { maxCellBytes: 100, maxResultBytes: 10_000 } });
    expect(result.outcome).toBe('answered');
    expect(Buffer.byteLength(JSON.stringify(result.rows))).toBeLessThanOrEqual(10_000);
    expect(result.rows.every(([, body]) => Buffer.byteLength(body as string) <= 100)).toBe(true);
    await expect(stack.client.ask({ question: QUESTION, database: file, limits: { maxResultBytes: -1 } })).rejects.toThrow(/maxResultBytes/);
  });

  it('BLOBs are cut too, and a result within the limits is returned untouched', () => {
    const blob = { bytes: Buffer.alloc(10_000, 7).toString('base64') };
    const { rows, truncation } = boundRowBytes([[1, blob]], { maxCellBytes: 300, maxResultBytes: 1 << 20 });
    expect(Buffer.from((rows[0][1] as { bytes: string }).bytes, 'base64')).toHaveLength(300);
    expect(truncation).toMatchObject({ cutCells: 1, cutCellPositions: [[0, 1]], droppedRows: 0 });
    const small = [[1, 'a']];
    expect(boundRowBytes(small, { maxCellBytes: 300, maxResultBytes: 1024 })).toEqual({ rows: small, truncation: null });
  });

  it('a failed run prints its real cause, in plain text and in --json', async () => {
    const env = {
      DECODEX_HOME: mkdtempSync(path.join(os.tmpdir(), 'decodex-fail-')),
      TEMPORAL_ADDRESS: process.env.DECODEX_TEST_TEMPORAL_ADDRESS!,
      DECODEX_QUEUE_PREFIX: `failcause${process.pid}.`,
    };
    // A server nobody listens on: it passes the checks made before a run starts, and the worker cannot open it.
    const unreachable = 'mysql://reader@127.0.0.1:1/shop';
    const json = await runCli(['prepare', '--db', unreachable, '--no-llm', '--json'], env);
    expect(json.code).toBe(1);
    const failed = JSON.parse(json.stdout);
    expect(failed).toMatchObject({ outcome: 'failed', error: { kind: 'DatabaseUnavailable' } });
    expect(failed.error.message).toContain(`cannot open database ${unreachable}`);
    const plain = await runCli(['prepare', '--db', unreachable, '--no-llm'], env);
    expect(plain.code).toBe(1);
    expect(plain.stdout).toContain(`outcome: failed (DatabaseUnavailable: cannot open database ${unreachable}: `);
    expect(plain.stderr).not.toMatch(/Workflow execution failed|\n\s+at /);
  });
});
