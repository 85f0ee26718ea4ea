import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * A worker loads the client of an external system only when it is configured to use it (Qdrant,
 * at start) or first talks to it (a MySQL database, an Anthropic model, the question tokenizer,
 * the SQL analyzer):
 * each stays in a process's memory once loaded (Anthropic's SDK about 17 MB, Qdrant's and MySQL's
 * clients about 15 each, wink-nlp's English model about 25), and most workers use few of them.
 * That the lazily loaded ones still work is what their own tests show (test/llm, test/database,
 * test/artifacts, test/generation).
 */
const UNUSED_BY_DEFAULT = ['@anthropic-ai/sdk', '@qdrant/js-client-rest', 'mysql2', 'wink-nlp', '@polyglot-sql/sdk'];

function loadedPackages(env: Record<string, string>): string[] {
  const run = spawnSync(process.execPath, ['--require', require.resolve('tsx/cjs'), path.join(__dirname, '../support/loaded-packages-child.ts')], {
    encoding: 'utf8',
    timeout: 60_000,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DECODEX_HOME: mkdtempSync(path.join(os.tmpdir(), 'decodex-lazy-')),
      DECODEX_EMBEDDER: 'hashed',
      ...env,
    },
  });
  if (run.status !== 0) throw new Error(`the child failed: ${run.stderr}`);
  return JSON.parse(run.stdout) as string[];
}

describe('clients of external systems load on first use', () => {
  it('a worker on SQLite, the embedded vector store and an OpenAI-compatible model loads none of the others', () => {
    const loaded = loadedPackages({ DECODEX_LLM_BASE_URL: 'http://127.0.0.1:9/v1', DECODEX_LLM_MODEL: 'm', DECODEX_LLM_API_KEY: 'k' });
    expect(loaded).toContain('openai');
    expect(loaded).toContain('better-sqlite3');
    expect(loaded.filter((p) => UNUSED_BY_DEFAULT.includes(p))).toEqual([]);
  });

  it('a worker configured for a Qdrant server loads its client at start', () => {
    const loaded = loadedPackages({
      DECODEX_LLM_BASE_URL: 'http://127.0.0.1:9/v1',
      DECODEX_LLM_MODEL: 'm',
      DECODEX_LLM_API_KEY: 'k',
      QDRANT_URL: 'http://127.0.0.1:9',
    });
    expect(loaded).toContain('@qdrant/js-client-rest');
    expect(loaded).not.toContain('mysql2');
  });
});
