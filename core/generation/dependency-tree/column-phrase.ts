import { chunkEndingAt, chunkStartingAt, phraseOf } from './noun-chunks';
import type { QuestionToken } from './question-tokens';

/**
 * Attaches a literal to the noun phrase that names its column. English links them through
 * determiners, copulas and "of" ("whose age is 30", "with a founding year of 1970", "the city Port
 * Chelsea"); any other preposition or a verb means the column is implicit ("pilots from Canada",
 * "written by Ann Lee"), and then only the linking words are kept as context for the model.
 */

/** Words that sit between a column phrase and its value without changing what it means. */
const LINK_WORDS = new Set(['of', 'as', 'equal', 'being', 'be', '=', ':', 'named', 'called', 'titled', 'entitled', 'exactly', 'not', "n't", 'no']);

export interface ColumnAttachment {
  column: string | null;
  context: string;
  /** The column phrase is the noun written after the value ("3 cylinders", "female students"). */
  nounAfter: boolean;
}

/** Up to three words before the value (quotes left out), for a column the question leaves implicit. */
export function contextBefore(tokens: QuestionToken[], floor: number, valueStart: number): string {
  return phraseOf(tokens.slice(Math.max(floor + 1, valueStart - 4), valueStart).filter((t) => t.pos !== 'PUNCT'));
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
  nounAfterFallback: boolean,
): ColumnAttachment {
  const context = contextBefore(tokens, floor, valueStart);
  const blocked = (i: number): boolean => i <= floor || isLiteral(i);
  const after = valueBeforeNoun ? chunkStartingAt(tokens, valueEnd + 1, isLiteral) : null;
  // "female students", "3 cylinders": a value written right before a noun restricts or counts that noun.
  if (after && after[0].index === valueEnd + 1 && !tokens[valueStart].quoted) return { column: phraseOf(after), context, nounAfter: true };
  for (let i = cueStart - 1; i > floor; i--) {
    const t = tokens[i];
    // Copulas link ("whose age is 30"); "have" does not ("countries in europe have at least 3 makers").
    if (t.pos === 'DET' || (t.pos === 'AUX' && t.lemma === 'be') || t.pos === 'PART' || LINK_WORDS.has(t.lower)) continue;
    const chunk = chunkEndingAt(tokens, i, blocked);
    if (chunk) return { column: phraseOf(chunk), context, nounAfter: false };
    break;
  }
  // With nothing linked before it, a number counts the noun after it ("at least 3 bus routes")
  // and a name is a value of it ("from 'Brno' district", "the XML file type").
  let next = valueEnd + 1;
  while (tokens[next] && tokens[next].pos === 'PUNCT' && /^['"’”]$/.test(tokens[next].text)) next++; // closing quote
  const following = nounAfterFallback ? chunkStartingAt(tokens, next, isLiteral) : null;
  if (following && following[0].index === next) return { column: phraseOf(following), context, nounAfter: true };
  return { column: null, context, nounAfter: false };
}
