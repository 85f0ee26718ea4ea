import { runNodeScript } from '../../devkit/run-cli';

/**
 * What a worker process loads just by importing the activities: node-sql-parser's grammars
 * cost about 70 MB of resident memory and only bench:sql-parse uses them, so they load on
 * first use, not at import.
 */
test('importing the activities and workers does not load node-sql-parser', async () => {
  const probe = [
    "require('./activities');",
    "require('./workers/create-workers');",
    "console.log(JSON.stringify(Object.keys(require.cache).filter((f) => f.includes('/node_modules/node-sql-parser/'))));",
  ].join(' ');
  const run = await runNodeScript('-e', [probe], {}, { nodeArgs: ['--require', 'tsx/cjs'] });
  expect(run.stderr).toBe('');
  expect(JSON.parse(run.stdout)).toEqual([]);
});
