import type { QuestionToken } from './question-tokens';

/**
 * Noun chunks, the unit every attachment rule works on: a run of adjectives, nouns, numbers and
 * possessives ending in a noun ("the home city", "singer's age"). Without dependency arcs, the
 * nearest chunk in the right direction stands in for a head.
 */

const CHUNK_POS = new Set(['NOUN', 'PROPN', 'ADJ', 'NUM']);
/** Words wink tags as nouns or adjectives that never name a column. */
const NOT_COLUMN_WORDS = new Set(['many', 'much', 'all', 'each', 'every', 'other', 'different', 'distinct', 'unique', 'same', 'total', 'please']);

function inChunk(token: QuestionToken | undefined): boolean {
  if (!token) return false;
  if (token.text === "'s" || token.text === "'") return true;
  return CHUNK_POS.has(token.pos) && !NOT_COLUMN_WORDS.has(token.lower) && !(token.sentenceStart && token.pos === 'PROPN');
}

function isNoun(token: QuestionToken): boolean {
  return token.pos === 'NOUN' || (token.pos === 'PROPN' && !token.sentenceStart);
}

/** Joins tokens as the question wrote them (no space before "'s"). */
export function phraseOf(tokens: QuestionToken[]): string {
  return tokens.map((t, k) => (k > 0 && t.start > tokens[k - 1].end ? ' ' : '') + t.text).join('');
}

/** The chunk that ends at or before `end` (inclusive), skipping nothing; null when tokens[end] is not a noun. */
export function chunkEndingAt(tokens: QuestionToken[], end: number, isBlocked: (i: number) => boolean): QuestionToken[] | null {
  if (end < 0 || isBlocked(end) || !isNoun(tokens[end])) return null;
  let first = end;
  while (first - 1 >= 0 && !isBlocked(first - 1) && inChunk(tokens[first - 1])) first--;
  return tokens.slice(first, end + 1);
}

/** A chunk with its "of" complement ("name of the pilot", "number of employees"), as one phrase. */
export function chunkWithOwner(tokens: QuestionToken[], start: number, isBlocked: (i: number) => boolean = () => false): QuestionToken[] | null {
  const head = chunkStartingAt(tokens, start, isBlocked);
  if (!head) return null;
  const end = head[head.length - 1].index;
  if (tokens[end + 1]?.lower !== 'of') return head;
  const owner = chunkStartingAt(tokens, end + 2, isBlocked);
  return owner ? [...head, tokens[end + 1], ...owner] : head;
}

/** The chunk starting at `start`, or after the determiners there; its last token is a noun. */
export function chunkStartingAt(tokens: QuestionToken[], start: number, isBlocked: (i: number) => boolean = () => false): QuestionToken[] | null {
  let i = start;
  while (i < tokens.length && tokens[i].pos === 'DET') i++;
  let last = -1;
  for (let j = i; j < tokens.length && !isBlocked(j) && inChunk(tokens[j]); j++) if (isNoun(tokens[j]) || tokens[j].pos === 'ADJ') last = j;
  // A chunk ends in a noun; a trailing adjective is kept only when no noun follows it at all ("the oldest").
  if (last < i) return null;
  return tokens.slice(i, last + 1);
}
