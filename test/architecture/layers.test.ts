import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';

const root = path.resolve(__dirname, '../..');

/**
 * The restricted-import errors ESLint reports for each case's code as if it were the file at its
 * path, all linted by one ESLint in a child process (its flat config is an ES module, which
 * Jest's module sandbox cannot load).
 */
function boundaryErrors(cases: { file: string; code: string }[]): string[][] {
  const lint = `
    const { ESLint } = require('eslint');
    const cases = JSON.parse(require('node:fs').readFileSync(0, 'utf8'));
    const eslint = new ESLint({ cwd: process.cwd() });
    Promise.all(cases.map(async (c) => {
      const [result] = await eslint.lintText(c.code, { filePath: require('node:path').join(process.cwd(), c.file) });
      return result.messages.filter((m) => m.ruleId === '@typescript-eslint/no-restricted-imports').map((m) => m.message);
    })).then((out) => process.stdout.write(JSON.stringify(out)));`;
  const run = spawnSync(process.execPath, ['-e', lint], { cwd: root, input: JSON.stringify(cases), encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`eslint failed: ${run.stderr}`);
  return JSON.parse(run.stdout);
}

/** Every .ts file under the layers, repository-relative, and the repository files each imports. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  const walk = (dir: string): string[] =>
    readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? walk(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : [],
    );
  const files = ['core', 'activities', 'workflows', 'workers', 'cli', 'bench', 'scripts', 'devkit'].flatMap(walk);
  const known = new Set(files);
  for (const file of files) {
    const specs = [...readFileSync(path.join(root, file), 'utf8').matchAll(/(?:from|import)\s*\(?\s*['"](\.[^'"]+)['"]/g)].map((m) => m[1]);
    const targets = specs
      .map((spec) => path.normalize(path.join(path.dirname(file), spec)))
      .flatMap((t) => [`${t}.ts`, path.join(t, 'index.ts')].filter((c) => known.has(c)).slice(0, 1));
    graph.set(file, targets);
  }
  return graph;
}

/** One circle per back edge of a depth-first walk, as `a → b → a`: none means the graph has no circle. */
function circles(graph: Map<string, string[]>): string[] {
  const state = new Map<string, 'open' | 'done'>();
  const found: string[] = [];
  const visit = (node: string, trail: string[]) => {
    if (state.get(node) === 'done') return;
    if (state.get(node) === 'open') {
      found.push([...trail.slice(trail.indexOf(node)), node].join(' → '));
      return;
    }
    state.set(node, 'open');
    for (const next of graph.get(node) ?? []) visit(next, [...trail, node]);
    state.set(node, 'done');
  };
  for (const node of graph.keys()) visit(node, []);
  return found;
}

describe('the layers hold (README "Architecture")', () => {
  // One deliberate violation per boundary: if a rule is switched off or loosened, its case fails.
  const refused: [string, string, RegExp][] = [
    ['core/x.ts', "import { openDatabase } from '../activities/database/open-database';", /core\/ is below/],
    ['activities/linking/x.ts', "import { answerQuestion } from '../../workflows/answer-question';", /activities\/ is below/],
    ['workflows/answer/x.ts', "import type { SqliteDatabase } from '../../activities/database/sqlite-database';", /only the activity interfaces/],
    ['workflows/answer/x.ts', "import { createLinkingActivities } from '../../activities/linking/linking-activities';", /activity types only/],
    ['workflows/answer/x.ts', "import type { ActivityDeps } from '../../activities';", /not the activities index/],
    ['workflows/answer/x.ts', "import { readFileSync } from 'node:fs';", /deterministic/],
    ['workers/x.ts', "import { runCli } from '../cli/main';", /workers\/ is below/],
    ['cli/commands/x.ts', "import { main } from '../../bench/accuracy';", /cli\/ is below/],
    ['bench/x.ts', "import { startScriptedLlm } from '../test/scripted-llm/server';", /bench\/ is below/],
    ['scripts/x.ts', "import { until } from '../test/support/until';", /scripts\/ is below/],
    ['devkit/x.ts', "import { until } from '../test/support/until';", /devkit\/ is below/],
  ];
  const allowed: [string, string][] = [
    ['workflows/answer/x.ts', "import type { GenerationActivities } from '../../activities/generation/generation-activities';"],
    ['workflows/answer/x.ts', "import type { QuestionLlmActivities } from '../../activities/question-activities';"],
    ['workflows/answer/x.ts', "import type { QuestionContext } from '../../core/question/question-context';"],
    ['bench/x.ts', "import { startScriptedLlm } from '../devkit/scripted-llm/server';"],
    ['cli/commands/x.ts', "import { benchCommand } from './bench';"],
    ['cli/x.ts', "import { openSqliteArtifactStore } from '../activities/artifacts/sqlite-artifact-store';"],
  ];

  it('refuses a deliberate violation of each boundary and allows what the layers permit', () => {
    const errors = boundaryErrors([...refused, ...allowed].map(([file, code]) => ({ file, code })));
    refused.forEach(([file, code, message], i) =>
      expect({ file, code, errors: errors[i] }).toEqual({ file, code, errors: expect.arrayContaining([expect.stringMatching(message)]) }),
    );
    allowed.forEach(([file, code], i) => expect({ file, code, errors: errors[refused.length + i] }).toEqual({ file, code, errors: [] }));
  });

  it('has no import circle between files', () => {
    expect(circles(importGraph())).toEqual([]);
  });

  it('has no import loop between the folders of core/, activities/ or workflows/', () => {
    // The units are the second path segments: core/mining/ is one, and so is core/budget.ts.
    const unit = (file: string) => file.replace(/\.ts$/, '').split(path.sep).slice(0, 2).join('/');
    const units = new Map<string, string[]>();
    const because = new Map<string, string>();
    for (const [file, targets] of importGraph()) {
      for (const target of targets) {
        const [from, to] = [unit(file), unit(target)];
        const top = from.split('/')[0];
        if (from === to || !['core', 'activities', 'workflows'].includes(top) || !to.startsWith(`${top}/`) || because.has(`${from} → ${to}`)) continue;
        units.set(from, [...(units.get(from) ?? []), to]);
        because.set(`${from} → ${to}`, `${file} imports ${target}`);
      }
    }
    const named = (loop: string) => {
      const steps = loop.split(' → ');
      return [loop, ...steps.slice(1).map((to, i) => `  ${because.get(`${steps[i]} → ${to}`)}`)].join('\n');
    };
    expect(circles(units).map(named)).toEqual([]);
  });
});
