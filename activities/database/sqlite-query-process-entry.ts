import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** How a query process is started: its script, Node flags before it, and extra environment. */
export interface QueryProcessEntry {
  entry: string;
  execArgv: string[];
  env: Record<string, string>;
  /** A folder of this entry's own (the bundle), for the pool to remove when it closes; null if none. */
  ownDir: string | null;
}

/**
 * The query process's script (sqlite-query-process.ts). Run from compiled JavaScript, that is the
 * file itself. Run from TypeScript (tsx, ts-jest), it is bundled once into one JavaScript file by
 * esbuild, the compiler tsx itself uses: a child that loaded tsx instead would carry its loader,
 * about 19 MB of every query process's memory, for the handful of small files it runs.
 * better-sqlite3 stays outside the bundle (its native addon is found relative to its package),
 * so the child resolves it from decodex's node_modules through NODE_PATH.
 */
export function queryProcessEntry(): QueryProcessEntry {
  const source = require.resolve('./sqlite-query-process');
  if (!source.endsWith('.ts')) return { entry: source, execArgv: [], env: {}, ownDir: null };
  const ownDir = mkdtempSync(path.join(os.tmpdir(), 'decodex-sqlite-process-'));
  const entry = path.join(ownDir, 'sqlite-query-process.js');
  // Loaded only here: compiled installs never need the compiler.
  const esbuild = require('esbuild') as typeof import('esbuild');
  esbuild.buildSync({
    entryPoints: [source],
    outfile: entry,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: `node${process.versions.node.split('.')[0]}`,
    external: ['better-sqlite3'],
    logLevel: 'silent',
  });
  // buildSync leaves esbuild's service (a process of about 13 MB and a worker thread) running for
  // the life of this process; nothing here needs it again (tsx starts its own if it must compile).
  void esbuild.stop();
  const modules = path.dirname(path.dirname(require.resolve('better-sqlite3/package.json')));
  const nodePath = [modules, process.env.NODE_PATH].filter(Boolean).join(path.delimiter);
  return { entry, execArgv: [], env: { NODE_PATH: nodePath }, ownDir };
}
