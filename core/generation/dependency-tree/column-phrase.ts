import { chunkEndingAt, chunkStartingAt, phraseOf } from './noun-chunks';
import type { QuestionToken } from './question-tokens';

/**
 * Attaches a literal to the noun phrase that names its column. English links them through
 * determiners, copulas and "of" ("whose age is 30", "with a birthyear of 1970", "the city Port
 * Chelsea"); any other preposition or a verb means the column is implicit ("singers from France",
 * "directed by Ben Jones"), and then only the linking words are kept as context for the model.
 */

/** Words that sit between a column phrase and its value without changing what it means. */
const LINK_WORDS = new Set(['of', 'as', 'equal', 'being', 'be', '=', ':', 'named', 'called', 'titled', 'entitled', 'exactly', 'not', "n't", 'no']);

export interface ColumnAttachment {
  column: string | null;
  context: string;
}

/**
 * `cueStart` is where the comparison words begin (the value itself when there are none);
 * `floor` is the last token before this clause (exclusive bound).
 */
export function attachColumn(
  tokens: QuestionToken[],
  cueStart: number,
  floor: number,
  valueStart: number,
  valueEnd: number,
  isLiteral: (i: number) => boolean,
  valueBeforeNoun: boolean,
): ColumnAttachment {
  const context = phraseOf(tokens.slice(Math.max(floor + 1, valueStart - 3), valueStart));
  const blocked = (i: number): boolean => i <= floor || isLiteral(i);
  const after = valueBeforeNoun ? chunkStartingAt(tokens, valueEnd + 1, isLiteral) : null;
  // "female students", "3 cylinders": a value written right before a noun restricts or counts that noun.
  if (after && after[0].index === valueEnd + 1 && !tokens[valueStart].quoted) return { column: phraseOf(after), context };
  for (let i = cueStart - 1; i > floor; i--) {
    const t = tokens[i];
    if (t.pos === 'DET' || t.pos === 'AUX' || t.pos === 'PART' || LINK_WORDS.has(t.lower)) continue;
    const chunk = chunkEndingAt(tokens, i, blocked);
    if (chunk) return { column: phraseOf(chunk), context };
    break;
  }
  return { column: null, context };
}
