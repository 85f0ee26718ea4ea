// Lint rules that keep the architecture honest (README "Architecture"). The layers, lowest first:
//   core ← activities ← workflows, workers ← cli ← bench, scripts   (devkit: test tools; test: tests)
// A layer imports only from layers to its left. Besides:
// - workflows are deterministic sandboxed code: from activities they import the activity
//   interfaces' types only (`*-activities.ts`, never the index that binds them); their data types
//   come from core/;
// - core/ is pure code shared by both sides.
// test/architecture/layers.test.ts lints a deliberate violation of each rule, so none can be
// switched off unnoticed, and checks what ESLint cannot: no import circle between files, and no
// import loop between the folders (and top-level files) of core/, activities/ or workflows/.
import tseslint from 'typescript-eslint';

const LAYERS = {
  core: ['activities', 'workflows', 'workers', 'cli', 'bench', 'scripts', 'devkit', 'test'],
  activities: ['workflows', 'workers', 'cli', 'bench', 'scripts', 'devkit', 'test'],
  workflows: ['workers', 'cli', 'bench', 'scripts', 'devkit', 'test'],
  workers: ['cli', 'bench', 'scripts', 'devkit', 'test'],
  cli: ['bench', 'scripts', 'devkit', 'test'],
  bench: ['test'],
  scripts: ['test'],
  devkit: ['bench', 'scripts', 'test'],
};

/** `folder` may not import any of `above` (each a top-level folder of the repository). */
function layer(folder, above, extra = []) {
  return {
    files: [`${folder}/**/*.ts`],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            ...extra,
            {
              // Relative paths only: cli/commands/bench.ts is not the bench/ folder.
              group: above.flatMap((a) => [1, 2, 3, 4].flatMap((up) => [`${'../'.repeat(up)}${a}`, `${'../'.repeat(up)}${a}/**`])),
              message: `${folder}/ is below ${above.join(', ')}: it may not import them (README "Architecture")`,
            },
          ],
        },
      ],
    },
  };
}

export default tseslint.config(
  { ignores: ['node_modules/**', '.tools/**', '.decodex/**', 'coverage/**', 'bin/**', 'test/architecture/fixtures/**'] },
  {
    files: ['**/*.ts'],
    languageOptions: { parser: tseslint.parser, parserOptions: { sourceType: 'module' } },
    plugins: { '@typescript-eslint': tseslint.plugin },
    rules: {
      'no-debugger': 'error',
      'no-dupe-keys': 'error',
      'no-unreachable': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { args: 'none', ignoreRestSiblings: true, caughtErrors: 'none' }],
    },
  },
  layer('core', LAYERS.core),
  layer('activities', LAYERS.activities),
  layer('workflows', LAYERS.workflows, [
    {
      group: ['**/activities/**', '!**/activities/**/*-activities'],
      message: 'workflows import only the activity interfaces (*-activities.ts) from activities/; data types live in core/',
    },
    { group: ['**/activities/**/*-activities'], allowTypeImports: true, message: 'workflows import activity types only (import type ...)' },
    {
      // The index binds every activity (a value import would bundle them all); the types are in *-activities.ts.
      regex: '^(\\.\\./)+activities$',
      message: 'workflows import the activity interfaces (*-activities.ts), not the activities index',
    },
    { group: ['node:*', 'fs', 'path', 'os', 'child_process'], message: 'workflows are deterministic: no Node modules' },
  ]),
  layer('workers', LAYERS.workers),
  layer('cli', LAYERS.cli),
  layer('bench', LAYERS.bench),
  layer('scripts', LAYERS.scripts),
  layer('devkit', LAYERS.devkit),
);
