import { failureMessage } from '../kit/step-runner';
import type { QuestionRun } from './question-run';

const STAGE = 'notes';

/**
 * DexterSQL's note incorporator (§3.3.1): the notes touching the focused schema are candidates,
 * the model keeps the relevant ones, their other columns join the focus. No candidate, no call.
 */
export async function incorporateNotes(run: QuestionRun, availableNotes: number): Promise<void> {
  if (!run.config.notes.enabled) return;
  if (availableNotes === 0) {
    run.runner.note(STAGE, 'selectRelevantNotes', 'no disambiguation notes for this database', {
      skipped: run.ctx.prepared ? 'the preparation wrote none (run `decodex prepare` with a model)' : 'the database is not prepared',
    });
  } else {
    const ctx = run.ctx;
    try {
      const selected = await run.runner.paidStep(
        { stage: STAGE, name: 'selectRelevantNotes', summary: 'keep the notes relevant to the question; add their other columns', llmCalls: 1 },
        (o) => run.llm.selectRelevantNotes.executeWithOptions(o, [ctx]),
        (r) => ({
          outcome: `${r.selectedIds.length} of ${r.candidates} candidate notes kept${r.added.length ? `; added ${r.added.map((c) => `${c.table}.${c.column}`).join(', ')}` : ''}`,
          detail: { notes: r.selectedIds },
        }),
      );
      if (selected) run.ctx = { ...run.ctx, focus: selected.focus, notes: selected.notes };
    } catch (err) {
      run.runner.note(STAGE, 'selectRelevantNotes', 'note selection failed', { outcome: `continuing without notes: ${failureMessage(err)}` });
    }
  }
  run.runner.stageDone(STAGE);
}
