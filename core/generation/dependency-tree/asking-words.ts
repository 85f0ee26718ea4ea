import type { QuestionToken } from './question-tokens';

/**
 * Where a question asks for something: a question word or a known imperative opening a sentence
 * ("What are ...", "List ...", "In which year ...", "Please give ..."), or any other verb opening
 * a sentence with a noun phrase after it ("Tally the names ...", "Write the title ..."). wink tags
 * some sentence-initial imperatives PROPN, so a capitalised word before an article counts too.
 */

const ASKING_WORDS = new Set(
  (
    'what which who whom whose when where how list show give find return tell name display provide identify state calculate ' +
    'count compute determine indicate describe mention get select report output enumerate specify locate'
  ).split(' '),
);
const OBJECT_STARTS = new Set(['DET', 'NOUN', 'ADJ', 'NUM', 'PROPN']);

function opensRequest(tokens: QuestionToken[], i: number): boolean {
  const previous = tokens[i - 1];
  // "In which year", "To whom", "Also give ...": a preposition or adverb may open the sentence before it.
  const afterOpener = previous?.sentenceStart && (previous.pos === 'ADP' || OPENING_ADVERBS.has(previous.lower));
  return i === 0 || tokens[i].sentenceStart || previous.text === ',' || previous.lower === 'please' || afterOpener;
}

/** Particles of phrasal imperatives ("Write down the name", "List out the ids"). */
const PARTICLES = new Set(['down', 'out', 'up']);

const OPENING_ADVERBS = new Set(['please', 'also', 'then', 'and', 'additionally', 'next', 'finally']);

/** A verb (or a capitalised word wink took for a name) opening a sentence and followed by what it asks for. */
export function isImperative(tokens: QuestionToken[], i: number): boolean {
  const t = tokens[i];
  const next = PARTICLES.has(tokens[i + 1]?.lower ?? '') ? tokens[i + 2] : tokens[i + 1];
  if (!next || !(t.sentenceStart || (tokens[i - 1]?.sentenceStart && OPENING_ADVERBS.has(tokens[i - 1].lower)))) return false;
  return (t.pos === 'VERB' && OBJECT_STARTS.has(next.pos)) || (t.pos === 'PROPN' && next.pos === 'DET');
}

/** Every token that opens a request, in question order. */
export function askingStarts(tokens: QuestionToken[]): number[] {
  const starts: number[] = [];
  for (let i = 0; i < tokens.length; i++) {
    if ((ASKING_WORDS.has(tokens[i].lower) && opensRequest(tokens, i)) || isImperative(tokens, i)) starts.push(i);
  }
  if (starts.length > 0) return starts;
  // "The movie 'Gojira' is from which country?": with no opening request, a which / what before a noun asks.
  const inside = tokens.findIndex((t, i) => (t.lower === 'which' || t.lower === 'what') && ['NOUN', 'ADJ'].includes(tokens[i + 1]?.pos ?? ''));
  return inside >= 0 ? [inside] : [];
}

/** The first request's opening word: the tree's root, or -1. */
export function askingWordAt(tokens: QuestionToken[]): number {
  return askingStarts(tokens)[0] ?? -1;
}
