import { chunkStartingAt, phraseOf } from './noun-chunks';
import type { Ordering, QuestionLiteral } from './question-tree';
import { SMALLER_COMPARATIVES } from './comparison-cues';
import type { QuestionToken } from './question-tokens';

/**
 * Superlatives become ORDER BY + LIMIT: "the oldest singer" → ORDER BY age DESC LIMIT 1,
 * "the 3 most populated cities" / "top 5" → LIMIT 3 / 5, "the most singers" (most + a plural
 * noun) → ORDER BY COUNT(...) DESC. The limit number is not a filter value.
 */
export interface Superlative {
  ordering: Ordering;
  limit: number;
  /** The literal used as the LIMIT count, if the question wrote one. */
  limitLiteral: QuestionLiteral | null;
  /** Token index of the superlative word. */
  at: number;
}

/** Superlatives that mean "smallest first"; every other one orders descending. */
const ASCENDING = new Set([
  'least',
  'fewest',
  'lowest',
  'smallest',
  'shortest',
  'youngest',
  'earliest',
  'lightest',
  'slowest',
  'cheapest',
  'worst',
  'bottom',
  'minimum',
  'newest',
  'closest',
  'nearest',
  'weakest',
  'poorest',
  'thinnest',
  'narrowest',
  'least',
]);
const IRREGULAR = new Set(['most', 'least', 'fewest', 'best', 'worst', 'top', 'bottom']);
/** "-est" words that are not superlatives. */
const NOT_SUPERLATIVE = new Set([
  'interest',
  'rest',
  'test',
  'west',
  'forest',
  'request',
  'guest',
  'contest',
  'protest',
  'harvest',
  'nest',
  'quest',
  'chest',
  'vest',
  'est',
  'modest',
  'honest',
  'manifest',
  'digest',
  'suggest',
  'invest',
  'arrest',
  'pest',
]);

const FREQUENCY_WORDS = new Set(['common', 'frequent', 'frequently', 'commonly', 'popular', 'numerous', 'often', 'usual', 'prevalent']);

export function isSuperlative(token: QuestionToken): boolean {
  if (IRREGULAR.has(token.lower)) return true;
  // wink lemmatises some superlatives to themselves ("lowest"), so an adjective or adverb tag also counts.
  return /^[a-z]+est$/.test(token.lower) && !NOT_SUPERLATIVE.has(token.lower) && (token.lemma !== token.lower || token.pos === 'ADJ' || token.pos === 'ADV');
}

/**
 * "the first Oslo Marathon", "the last stage": first / last after a determiner order by
 * time or position, except in the column names "first name" / "last name".
 */
function isOrdinalSuperlative(tokens: QuestionToken[], i: number): boolean {
  const t = tokens[i];
  if (t.lower !== 'first' && t.lower !== 'last') return false;
  const before = tokens[i - 1];
  const after = tokens[i + 1];
  if (!before || !['the', 'its', 'his', 'her', 'their', "'s"].includes(before.lower)) return false;
  return !!after && !/^(name|names|names?'s?)$/.test(after.lower) && after.pos !== 'NUM' && after.lower !== 'and';
}

export function findSuperlative(tokens: QuestionToken[], literals: QuestionLiteral[]): Superlative | null {
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (isOrdinalSuperlative(tokens, i)) {
      const chunk = chunkStartingAt(tokens, i + 1);
      const by = [t.text, chunk ? phraseOf(chunk) : ''].join(' ').trim();
      return { ordering: { by, direction: t.lower === 'first' ? 'ASC' : 'DESC', aggregate: null, cue: t.lower }, limit: 1, limitLiteral: null, at: i };
    }
    if (!isSuperlative(t)) continue;
    // "at least 3" / "at most" are comparisons; "most of", "the most common" stay superlatives.
    if ((t.lower === 'least' || t.lower === 'most') && tokens[i - 1]?.lower === 'at') continue;
    if (t.lower === 'top' && !isTopN(tokens, i, literals)) continue;
    // "from the tallest to the shortest" states a sort direction, not a LIMIT.
    if (inFromToRange(tokens, i)) continue;
    const limitLiteral = limitNear(tokens, i, literals);
    const afterLimit = i + 1 + (limitLiteral && limitLiteral.tokens[0] === i + 1 ? 1 : 0);
    // "the highest number of orders", "the most count of": ordering by a count of what follows "of".
    const numberOf =
      ['number', 'count', 'amount'].includes(tokens[afterLimit]?.lower ?? '') &&
      tokens[afterLimit + 1]?.lower === 'of' &&
      tokens[afterLimit].lower !== 'amount';
    const frequency = (t.lower === 'most' || t.lower === 'least') && FREQUENCY_WORDS.has(tokens[i + 1]?.lower ?? '');
    const chunk = chunkStartingAt(tokens, numberOf ? afterLimit + 2 : frequency ? afterLimit + 1 : afterLimit);
    const head = chunk?.[chunk.length - 1];
    // "the most common type", "the least numerous element": frequency is a count of rows.
    // "the most bus routes": most / least / fewest before a plural noun count rows.
    const countsRows =
      numberOf ||
      frequency ||
      ((t.lower === 'most' || t.lower === 'least' || t.lower === 'fewest') &&
        chunk !== null &&
        head!.pos === 'NOUN' &&
        head!.lower !== head!.lemma &&
        chunk[0].pos !== 'ADJ');
    const by = countsRows ? (chunk ? phraseOf(chunk) : '*') : [t.text, chunk ? phraseOf(chunk) : ''].join(' ').trim();
    return {
      ordering: { by, direction: ASCENDING.has(t.lower) ? 'ASC' : 'DESC', aggregate: countsRows ? 'COUNT' : null, cue: t.lower },
      limit: limitLiteral && typeof limitLiteral.value === 'number' ? limitLiteral.value : 1,
      limitLiteral,
      at: i,
    };
  }
  return null;
}

function inFromToRange(tokens: QuestionToken[], i: number): boolean {
  const near = (from: number, to: number, word: string): boolean => tokens.slice(Math.max(0, from), Math.max(0, to)).some((t) => t.lower === word);
  return (near(i - 2, i, 'from') && near(i + 1, i + 4, 'to')) || (near(i - 2, i, 'to') && near(i - 6, i - 1, 'from'));
}

/**
 * "Which runner is older, Ana Ruiz or Ben Ode?":
 * a comparative with no "than" in a which/who question between alternatives picks one row, like a superlative.
 */
export function findComparativeChoice(tokens: QuestionToken[]): Superlative | null {
  // A choice needs named alternatives ("A or B"); without them "which has higher X" is usually a filter.
  if (!tokens.some((t) => t.lower === 'which' || t.lower === 'who') || !tokens.some((t) => t.lower === 'or')) return null;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    const comparative = (t.pos === 'ADJ' || t.pos === 'ADV') && /er$/.test(t.lower) && t.lemma !== t.lower;
    const periphrastic = (t.lower === 'more' || t.lower === 'less') && tokens[i + 1]?.pos === 'ADJ';
    if (!comparative && !periphrastic) continue;
    // "older than 30" compares; "4 or more" is a count comparison.
    if (tokens.slice(i + 1, i + 4).some((n) => n.lower === 'than') || tokens[i - 1]?.lower === 'or') continue;
    const word = periphrastic ? tokens[i + 1] : t;
    const chunk = chunkStartingAt(tokens, i + (periphrastic ? 2 : 1));
    const direction = SMALLER_COMPARATIVES.has(t.lower) ? 'ASC' : 'DESC';
    const by = [word.text, chunk ? phraseOf(chunk) : ''].join(' ').trim();
    return { ordering: { by, direction, aggregate: null, cue: t.lower }, limit: 1, limitLiteral: null, at: i };
  }
  return null;
}

/** "top 5", "top five": a count right after "top"; a plain "top" ("the top speed") is not one. */
function isTopN(tokens: QuestionToken[], i: number, literals: QuestionLiteral[]): boolean {
  return (
    literals.some((l) => l.tokens[0] === i + 1 && typeof l.value === 'number') ||
    ['ranked', 'rated', 'scoring', 'scorer', 'scorers'].includes(tokens[i + 1]?.lower ?? '')
  );
}

/** A small count just before or after the superlative: "the 3 oldest", "oldest 3 players", "top 5". */
function limitNear(tokens: QuestionToken[], i: number, literals: QuestionLiteral[]): QuestionLiteral | null {
  const candidates = literals.filter(
    (l) => typeof l.value === 'number' && Number.isInteger(l.value) && (l.value as number) > 0 && (l.value as number) <= 1000 && l.kind === 'number',
  );
  const before = candidates.find((l) => l.tokens[1] === i - 1 || (l.tokens[1] === i - 2 && tokens[i - 1].lower === 'most'));
  const after = candidates.find((l) => l.tokens[0] === i + 1);
  return before ?? after ?? null;
}
