import { candidateNotes, expandFocusWithNotes } from '../../core/notes/candidate-notes';
import type { DisambiguationNote } from '../../core/exploration/pair-types';
import type { FocusedTable } from '../../core/question/focused-table';
import { columnKey, type ColumnRef } from '../../core/preparation/column-ref';
import type { LlmCallUsage } from '../../core/usage';
import type { QuestionLlmDeps } from '../generation/generation-deps';
import { askModel, onlyValues } from '../prompts/ask-model';
import { ARTIFACT_KINDS, artifactKeys } from '../prepared/preparation-artifacts';
import { questionPromptVars } from '../prompts/question-context';
import type { QuestionContext } from '../../core/question/question-context';

export interface SelectRelevantNotesOutput {
  candidates: number;
  /** The selected notes' texts, prefixed by their columns (what later prompts show). */
  notes: string[];
  selectedIds: string[];
  focus: FocusedTable[] | null;
  added: ColumnRef[];
  /** Empty when there was no candidate to judge (no call made). */
  usage: LlmCallUsage[];
}

/**
 * DexterSQL's note incorporator (§3.3.1): candidates are the notes touching the focused schema;
 * the model keeps the relevant ones; the other columns of a kept note join the focus; nothing
 * is ever removed from it.
 */
export async function selectRelevantNotes(deps: QuestionLlmDeps, ctx: QuestionContext): Promise<SelectRelevantNotesOutput> {
  const none = { candidates: 0, notes: [], selectedIds: [], focus: ctx.focus, added: [], usage: [] };
  if (!ctx.prepared) return none;
  const all = (await deps.store.get<DisambiguationNote[]>(ARTIFACT_KINDS.noteSet, artifactKeys.noteSet(ctx.prepared.databaseId, ctx.prepared.versions))) ?? [];
  const candidates = candidateNotes(all, ctx.focus);
  if (!candidates.length) return none;
  const vars = await questionPromptVars(deps, ctx);
  const answer = await askModel(
    deps.llm,
    'select-notes',
    {
      ...vars,
      candidates: candidates.map((n) => `[${n.id}] on ${n.columns.map(columnKey).join(', ')}: ${n.note}`).join('\n\n'),
    },
    {
      narrow: onlyValues(
        'relevant',
        candidates.map((n) => n.id),
      ),
    },
  );
  const wanted = new Set(answer.value.relevant.map((id) => id.trim().replace(/^\[|\]$/g, '')));
  const selected = candidates.filter((n) => wanted.has(n.id));
  const { focus, added } = expandFocusWithNotes(ctx.focus, selected);
  return {
    candidates: candidates.length,
    notes: selected.map((n) => `${n.columns.map(columnKey).join(' / ')}: ${n.note}`),
    selectedIds: selected.map((n) => n.id),
    focus,
    added,
    usage: [answer.usage],
  };
}
