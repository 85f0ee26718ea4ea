import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { escapeForTerminal } from '../../cli/terminal-text';
import { startScriptedLlm, type ScriptedLlm } from '../../devkit/scripted-llm/server';
import { runCli } from '../../devkit/run-cli';
import { scriptedPipeline } from '../../devkit/scripted-pipeline';

/**
 * Issue 12, point 9: output that cannot hurt a terminal. Data holding escape sequences (retitle,
 * clear screen), a carriage return and a bidi override is printed escaped; a run on a missing
 * database and a run whose reader goes away early leave no stack trace or SDK warning on stderr.
 */
const QUESTION = 'What does the note say?';
const HOSTILE = 'ok\x1b]0;pwned\x07\x1b[2J\rX\u202egnp.exe';

describe('terminal output', () => {
  let llm: ScriptedLlm;
  let file: string;
  const env = () => ({
    DECODEX_HOME: mkdtempSync(path.join(os.tmpdir(), 'decodex-term-')),
    TEMPORAL_ADDRESS: process.env.DECODEX_TEST_TEMPORAL_ADDRESS!,
    DECODEX_QUEUE_PREFIX: `term${process.pid}.`,
    DECODEX_LLM_BASE_URL: llm.baseUrl,
    DECODEX_LLM_MODEL: 'scripted',
    DECODEX_LLM_API_KEY: 'k',
  });

  beforeAll(async () => {
    file = path.join(mkdtempSync(path.join(os.tmpdir(), 'decodex-term-db-')), 'notes.sqlite');
    const db = new Database(file);
    // The hostile names are the database's (the guard refuses control characters in SQL, so the query names none).
    db.exec('CREATE TABLE "note\x1b[31m" (id INTEGER, "b\x1b[5m" TEXT)');
    db.exec('CREATE VIEW note AS SELECT * FROM "note\x1b[31m"');
    db.prepare('INSERT INTO "note\x1b[31m" VALUES (1, ?)').run(HOSTILE);
    db.close();
    llm = await startScriptedLlm({ rules: scriptedPipeline(new Map([[QUESTION, 'SELECT * FROM note']])) });
  });
  afterAll(async () => {
    await llm?.close();
  });

  it('control characters, carriage returns and bidi overrides in data are shown escaped', async () => {
    const run = await runCli(['ask', '--db', file, '--preset', 'quick', QUESTION], env());
    expect(run.stdout).toMatch(/outcome: answered/);
    expect(run.stdout).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f\u202e]/);
    expect(run.stdout).toContain('ok\\x1b]0;pwned\\x07\\x1b[2J\\rX\\u202egnp.exe');
    expect(run.stdout).toContain('b\\x1b[5m');
    expect(escapeForTerminal('a\nb\tc', { keepNewlines: true })).toBe('a\nb\tc');
    expect(escapeForTerminal('a\nb\tc')).toBe('a\\nb\\tc');
  });

  it('a missing database is refused at once with its cause, and no stack trace or SDK warning on stderr', async () => {
    const missing = path.join(os.tmpdir(), 'decodex-term-missing', 'gone.sqlite');
    const run = await runCli(['ask', '--db', missing, QUESTION], env());
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/no SQLite database at/);
    expect(run.stderr).not.toMatch(/WARN|ERROR|\n\s+at |Error:/);
  });

  it('a reader that went away (| head) leaves no EPIPE trace', async () => {
    const child = spawn(process.execPath, [path.resolve(__dirname, '../../bin/decodex.js'), 'ask', '--db', file, '--preset', 'quick', QUESTION], {
      cwd: path.resolve(__dirname, '../..'),
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env() },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.stdout.destroy(); // like `| head -0`: the reader is gone before the answer is written
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(stderr).not.toMatch(/EPIPE|\n\s+at /);
    expect(code).not.toBeNull();
  });
});
