import { Worker } from '@temporalio/worker';
import { loadHistories, saveHistory } from '../support/history-fixtures';
import { recordQuestionHistories } from '../support/history-scenarios';

/**
 * Workflow determinism across code changes: the question histories in test/workflows/histories/
 * were recorded by an earlier `answerQuestion` (test/support/history-scenarios.ts lists the runs:
 * each preset and route), and every one must replay against the current workflow bundle. A run
 * in flight when workers are upgraded replays its history the same way; a change that issues
 * other commands (activities, timers, child workflows, in another order) fails here.
 *
 * Re-record (real workers and the scripted LLM; takes a minute or two):
 *
 *   DECODEX_RECORD_HISTORIES=1 nice -n 10 npx jest test/workflows/replay-histories.test.ts
 *
 * Re-record only to add a scenario, or for a change of command order that is versioned with
 * Temporal's patching (`patched()`/`deprecatePatch()` in the workflow), so that the old histories
 * still replay: keep the old files beside the new ones until no run of the old code is in flight.
 */
const RECORD = process.env.DECODEX_RECORD_HISTORIES === '1';

describe('stored question histories replay against the current workflow code', () => {
  beforeAll(async () => {
    if (!RECORD) return;
    for (const r of await recordQuestionHistories()) saveHistory(r.name, r.workflowId, r.history);
  }, 600_000);

  it('replays every stored history without nondeterminism', async () => {
    const stored = loadHistories();
    expect(stored.map((s) => s.name)).toEqual([
      'database-error',
      'decosearch-complex-refined',
      'decosearch-fall-through',
      'dextersql-notes-tournament',
      'hybrid',
      'hybrid-prepares-then-budget',
      'hybrid-stops-on-agreement',
      'quick',
    ]);
    const failures: string[] = [];
    const results = Worker.runReplayHistories(
      { workflowBundle: { codePath: process.env.DECODEX_TEST_WORKFLOW_BUNDLE! } },
      stored.map((s) => ({ workflowId: s.workflowId, history: s.history })),
    );
    const names = new Map(stored.map((s) => [s.workflowId, s.name]));
    let replayed = 0;
    for await (const r of results) {
      replayed++;
      if (r.error) failures.push(`${names.get(r.workflowId)}: ${r.error.name}: ${r.error.message}`);
    }
    expect(failures).toEqual([]);
    expect(replayed).toBe(stored.length);
  }, 120_000);
});
