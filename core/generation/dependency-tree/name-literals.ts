import { isImperative } from './asking-words';
import type { QuestionLiteral } from './question-tree';
import type { QuestionToken } from './question-tokens';

/**
 * Names as literals: runs of capitalised words ("France", "New York", "Bob Smith", "Paul di
 * Resta"), codes ("TR007", "K-12"), lone letters, lowercase names wink knows as proper nouns
 * ("france"), and whatever follows "named" / "called".
 */

/**
 * Words that open a sentence capitalised only because they open it: question words,
 * imperatives (wink tags "List", "Name" PROPN), prepositions and determiners.
 */
const SENTENCE_OPENERS = new Set(
  (
    'what which who whom whose when where why how is are was were do does did has have had can could will would should ' +
    'list name names show give find return count tell please among for in of on at from with by to as after before during between ' +
    'calculate identify provide state indicate describe mention display compute determine sort order rank select get ' +
    'the a an this these those each every all any some i there it its they their our we you your his her among within ' +
    'if according based consider considering excluding including except other not only also and or but'
  ).split(' '),
);

/** Connectors kept inside a name when another capitalised word follows ("Bank of America", "Lucia di Marco"). */
const NAME_CONNECTORS = new Set(['of', 'de', 'di', 'da', 'du', 'la', 'le', 'van', 'von', 'der', 'del', 'y', '&', '-', "'"]);

/** Where a name introduced by "named" stops. */
const COMPASS_WORDS = new Set([
  'north',
  'south',
  'east',
  'west',
  'northern',
  'southern',
  'eastern',
  'western',
  'central',
  'northeast',
  'northwest',
  'southeast',
  'southwest',
]);

const NAMED_STOPS = new Set([
  'and',
  'or',
  'that',
  'which',
  'who',
  'with',
  'in',
  'for',
  'from',
  'of',
  'is',
  'are',
  'was',
  'were',
  'has',
  'have',
  'by',
  'on',
  'at',
  'whose',
  'what',
  'the',
]);

/** Words that introduce a name however it is written ("a user called jdoe42"). */
const NAMING_WORDS = new Set(['named', 'called', 'titled', 'entitled', 'nicknamed', 'username']);

function isCode(token: QuestionToken): boolean {
  return /\p{L}/u.test(token.text) && /\d/.test(token.text) && !/^\d+(st|nd|rd|th|s)$/i.test(token.text);
}

export function isWord(token: QuestionToken): boolean {
  return /^[\p{L}][\p{L}\p{N}'-]*$/u.test(token.text);
}

export function isNameWord(token: QuestionToken): boolean {
  if (token.pos === 'PUNCT' || token.pos === 'SYM') return false;
  if (isCode(token)) return true;
  // A lone letter is a code ("section h", "grade b"); "a" and "I" are words.
  if (/^[b-hj-z]$/i.test(token.text) && !token.sentenceStart) return true;
  // wink knows many lowercase place and brand names ("france") as proper nouns.
  if (token.pos === 'PROPN' && !token.sentenceStart && /^\p{Ll}/u.test(token.text) && token.text.length > 1) return true;
  if (!/^\p{Lu}/u.test(token.text)) return false;
  // "I", and "ID"/"IDs", which questions capitalise as the column word they are.
  if (token.text === 'I' || /^ids?$/i.test(token.text)) return false;
  return !(token.sentenceStart && SENTENCE_OPENERS.has(token.lower));
}

export function nameAt(tokens: QuestionToken[], i: number, taken: boolean[]): { first: number; last: number; literal: Omit<QuestionLiteral, 'tokens'> } | null {
  const named = NAMING_WORDS.has(tokens[i - 1]?.lower ?? '') && /^[\p{L}\p{N}]/u.test(tokens[i].text);
  if (!named && !isNameWord(tokens[i])) return null;
  // "Tally the names ...", "Write down the title ...": an imperative opening the sentence is no name.
  if (!named && isImperative(tokens, i)) return null;
  let last = i;
  for (let j = i + 1; j < tokens.length && !taken[j]; j++) {
    if (isNameWord(tokens[j]) && !tokens[j].sentenceStart) last = j;
    else if (named && j - i < 5 && isWord(tokens[j]) && !NAMED_STOPS.has(tokens[j].lower)) last = j;
    else if (NAME_CONNECTORS.has(tokens[j].lower) && tokens[j + 1] && !taken[j + 1] && isNameWord(tokens[j + 1])) continue;
    else break;
  }
  // "east Bohemia", "south Bohemia": a lowercase compass word is part of the place name after it.
  const first = i > 0 && COMPASS_WORDS.has(tokens[i - 1].lower) && !taken[i - 1] && !named ? i - 1 : i;
  // "Agent 13", "PO Box 1040", "Storage Unit 2": a number written right after a name belongs to it.
  const after = tokens[last + 1];
  if (after && !taken[last + 1] && /^\d+$/.test(after.text) && after.start === tokens[last].end + 1 && !(tokens[last + 2] && tokens[last + 2].pos === 'NOUN'))
    last++;
  const text = tokens
    .slice(first, last + 1)
    .map((t, k) => (k > 0 && t.start > tokens[first + k - 1].end ? ' ' : '') + t.text)
    .join('');
  const kind = last === i && first === i && isCode(tokens[i]) ? 'code' : 'proper_noun';
  return { first, last, literal: { text, value: text, kind } };
}
