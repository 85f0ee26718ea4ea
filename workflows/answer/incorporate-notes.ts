import type { QuestionContext } from '../../core/question/question-context';
import { failureMessage } from '../kit/step-runner';
import type { StageKit } from './stage-kit';

const STAGE = 'notes';

/** What the note incorporator produces: the notes every later prompt shows, and the focus with their columns. */
export type IncorporatedNotes = Pick<QuestionContext, 'focus' | 'notes'>;

/**
 * DexterSQL's note incorporator (§3.3.1): the notes touching the focused schema are candidates,
 * the model keeps the relevant ones, their other columns join the focus. No candidate, no call;
 * switched off, no note selected, or failed, the focus and notes stay as they were in `ctx`.
 */
export async function incorporateNotes(kit: StageKit, ctx: QuestionContext, availableNotes: number): Promise<IncorporatedNotes> {
  const unchanged: IncorporatedNotes = { focus: ctx.focus, notes: ctx.notes };
  if (!kit.config.notes.enabled) return unchanged;
  let incorporated = unchanged;
  if (availableNotes === 0) {
    kit.runner.note(STAGE, 'selectRelevantNotes', 'no disambiguation notes for this database', {
      skipped: ctx.prepared ? 'the preparation wrote none (run `decodex prepare` with a model)' : 'the database is not prepared',
    });
  } else {
    try {
      const selected = await kit.runner.paidStep(
        { stage: STAGE, name: 'selectRelevantNotes', summary: 'keep the notes relevant to the question; add their other columns', llmCalls: 1 },
        (o) => kit.llm.selectRelevantNotes.executeWithOptions(o, [ctx]),
        (r) => ({
          outcome: `${r.selectedIds.length} of ${r.candidates} candidate notes kept${r.added.length ? `; added ${r.added.map((c) => `${c.table}.${c.column}`).join(', ')}` : ''}`,
          detail: { notes: r.selectedIds },
        }),
      );
      if (selected) incorporated = { focus: selected.focus, notes: selected.notes };
    } catch (err) {
      kit.runner.note(STAGE, 'selectRelevantNotes', 'note selection failed', { outcome: `continuing without notes: ${failureMessage(err)}` });
    }
  }
  kit.runner.stageDone(STAGE);
  return incorporated;
}
