import type { QuestionLiteral } from './question-tree';
import type { QuestionToken } from './question-tokens';
import { isSuperlative } from './superlatives';

/**
 * Lowercase, unquoted words that the question's grammar marks as stored values: predicates
 * ("whose status is suspended"), attributive adjectives ("female students"), modifiers of
 * category nouns ("draft format") and agents ("owned by jdoe42").
 */

/** Adjectives that describe rows or quantities rather than being stored values. */
const NON_VALUE_PREDICATES = new Set([
  'many',
  'much',
  'more',
  'less',
  'same',
  'different',
  'available',
  'present',
  'there',
  'able',
  'not',
  'also',
  'only',
  'all',
  'both',
  'true',
  'known',
  'unknown',
  'null',
  'empty',
  'higher',
  'lower',
  'larger',
  'smaller',
  'greater',
  'bigger',
  'equal',
  'above',
  'below',
  'over',
  'under',
]);
const COPULAS = new Set(['is', 'are', 'was', 'were', 'as', 'be', 'being']);
const CLAUSE_ENDS = new Set(['?', '.', ',', ';', '!', 'and', 'or', 'that', 'which', 'who', 'with', 'have', 'has', 'had', 'in', 'for', 'from', 'but']);

/**
 * "whose status is suspended", "cards that are all legal", "finish effect as glossy": a
 * word the question predicates of a noun, closing its clause, is a stored category value.
 */
export function isPredicateValue(tokens: QuestionToken[], i: number): boolean {
  const t = tokens[i];
  if (NON_VALUE_PREDICATES.has(t.lower) || isGraded(t) || !['ADJ', 'NOUN', 'PROPN', 'VERB', 'X'].includes(t.pos)) return false;
  if (t.pos === 'VERB' && !t.lower.endsWith('ed')) return false;
  const next = tokens[i + 1];
  if (next && !CLAUSE_ENDS.has(next.lower)) return false;
  // "accounts are closed in 1998" is a passive verb; "status is suspended." closes on the value.
  if (t.pos === 'VERB' && next && !['?', '.', ',', ';', '!', 'and', 'or', 'have', 'has', 'had'].includes(next.lower)) return false;
  let j = i - 1;
  while (j >= 0 && ['all', 'the', 'a', 'an'].includes(tokens[j].lower)) j--;
  if (j < 1 || !COPULAS.has(tokens[j].lower)) return false;
  // "a parrot as a pet": after "as" and an article the noun names the role (the column), see isRoleValue.
  if (tokens[j].lower === 'as' && j < i - 1) return false;
  return tokens[j - 1].pos === 'NOUN';
}

/** "has a parrot as a pet", "own a horse as a pet": the noun before "as a <noun>" is a value of that noun. */
export function isRoleValue(tokens: QuestionToken[], i: number): boolean {
  return (
    tokens[i].pos === 'NOUN' &&
    tokens[i + 1]?.lower === 'as' &&
    ['a', 'an', 'the', 'their', 'its'].includes(tokens[i + 2]?.lower ?? '') &&
    tokens[i + 3]?.pos === 'NOUN'
  );
}

/** Adjectives that size, order or pick rows, or describe the question, rather than being a stored category. */
const STRUCTURAL_ADJECTIVES = new Set(
  (
    'first last middle full total average mean different distinct unique other same many much more most less least each every all ' +
    'new old given specific certain particular maximum minimum max min overall whole entire current previous next following ' +
    'corresponding respective related own several various possible available individual separate single double official ' +
    'top bottom high low long short large small big early late recent young main primary secondary general common ' +
    'such only few both any some annual daily monthly yearly weekly final initial full-time original'
  ).split(' '),
);

/**
 * "female students", "black border", "closed schools": an adjective or participle restricting
 * the noun after it is a condition on that noun's rows (a stored category), unless it is one of
 * the adjectives that only size, order or pick rows. Noun modifiers ("car makers", "credit card")
 * are left alone: they name things far more often than they filter them.
 */
export function isAttributiveValue(tokens: QuestionToken[], i: number): boolean {
  const t = tokens[i];
  const next = tokens[i + 1];
  if (!next || next.pos !== 'NOUN' || t.sentenceStart) return false;
  if (t.pos !== 'ADJ' && !(t.pos === 'VERB' && t.lower.endsWith('ed'))) return false;
  if (STRUCTURAL_ADJECTIVES.has(t.lower) || isGraded(t)) return false;
  // "most populated", "very large": a graded adjective orders or compares, it is not a category.
  const previous = tokens[i - 1];
  return !previous || !(['most', 'least', 'more', 'less', 'very', 'so', 'too'].includes(previous.lower) || isGraded(previous));
}

/** Comparatives and superlatives ("older", "oldest"): comparisons, never stored values. */
function isGraded(t: QuestionToken): boolean {
  return (t.lemma !== t.lower && /(er|est)$/.test(t.lower)) || isSuperlative(t);
}

/** "blue-haired" → blue, "left-footed" → left: the value of a compound adjective is its first part. */
export function wordLiteral(tokens: QuestionToken[], first: number, last: number): Omit<QuestionLiteral, 'tokens'> {
  const text = tokens
    .slice(first, last + 1)
    .map((t) => t.text)
    .join(' ');
  const compound = first === last ? /^(\p{L}+)-\p{L}+ed$/u.exec(text) : null;
  return { text, value: compound ? compound[1] : text, kind: 'word' };
}

/**
 * Head nouns that name a category, whose modifier is the category's value: "draft format",
 * "expansion type", "owner disposition" is too specific, but "X type / status / format / class /
 * level / tag / badge / role / language / genre / power" is how English names a value of X.
 */
const CATEGORY_NOUNS = new Set(
  'type types kind kinds format formats status category categories class classes tag tags badge badges label role roles genre genres language languages power powers rarity edition breed species position positions mode style layout segment segments industry genre'.split(
    ' ',
  ),
);

export function isCategoryModifier(tokens: QuestionToken[], i: number, taken: boolean[]): boolean {
  const t = tokens[i];
  const head = tokens[i + 1];
  if (!head || !CATEGORY_NOUNS.has(head.lower) || t.sentenceStart) return false;
  if (!['NOUN', 'PROPN', 'X', 'ADJ'].includes(t.pos) || STRUCTURAL_ADJECTIVES.has(t.lower) || CATEGORY_NOUNS.has(t.lower)) return false;
  // "the engine type of ...", "which language": with a determiner or an "of" after it, the phrase names
  // the attribute being asked about rather than giving its value ("in draft format", "has flight power").
  // After a value ("the XML file type") the modifier is part of the attribute's name.
  const before = tokens[i - 1];
  // "in the horror category", "of the household segment": after a preposition and an article it is a value again.
  const afterPreposition = before?.pos === 'DET' && tokens[i - 2]?.pos === 'ADP';
  if (before && !afterPreposition && (before.pos === 'DET' || before.pos === 'PRON' || before.pos === 'ADJ' || taken[i - 1])) return false;
  return tokens[i + 2]?.lower !== 'of';
}

/** "sorted by age", "grouped by country": the noun after these names a column, not an agent. */
const ARRANGING_VERBS = new Set([
  'sort',
  'order',
  'rank',
  'arrange',
  'group',
  'list',
  'follow',
  'measure',
  'count',
  'classify',
  'categorize',
  'organize',
  'divide',
  'separate',
  'break',
  'split',
  'partition',
]);

/** "owned by jdoe42", "illustrated by artist": the agent after a participle and "by" is a value, whatever its case. */
export function isAgent(tokens: QuestionToken[], i: number): boolean {
  const by = tokens[i - 1];
  const verb = tokens[i - 2];
  if (!by || by.lower !== 'by' || !verb || verb.pos !== 'VERB' || !verb.lower.endsWith('ed') || ARRANGING_VERBS.has(verb.lemma)) return false;
  const next = tokens[i + 1];
  return (
    ['NOUN', 'PROPN', 'X'].includes(tokens[i].pos) && (!next || next.pos === 'PUNCT' || ['and', 'or', 'in', 'on', 'with', 'that', 'who'].includes(next.lower))
  );
}

/** Words before a modifier that put its noun phrase in a restricting position ("how many comedy movies", "in the navy department"). */
const RESTRICTING_BEFORE = new Set(['many', 'the', 'a', 'an', 'in', 'with', 'of', 'have', 'has', 'are', 'all']);

/**
 * "comedy movies", "vivo devices", "stroke patients": a lowercase noun modifying a plural noun
 * in a restricting position often names a category value of that noun. Offered as a possible
 * value only; "car makers" and "credit cards" are the same shape and name things instead.
 */
export function isNounModifierValue(tokens: QuestionToken[], i: number): boolean {
  const t = tokens[i];
  const head = tokens[i + 1];
  if (!head || head.pos !== 'NOUN' || head.lemma === head.lower || t.sentenceStart) return false;
  if (!['NOUN', 'ADJ', 'PROPN'].includes(t.pos) || STRUCTURAL_ADJECTIVES.has(t.lower) || CATEGORY_NOUNS.has(t.lower) || isGraded(t)) return false;
  return RESTRICTING_BEFORE.has(tokens[i - 1]?.lower ?? '') && tokens[i + 2]?.lower !== 'of';
}

const OBJECT_PREPOSITIONS = new Set(['with', 'in', 'via', 'through', 'against', 'from', 'by', 'for']);
const CLAUSE_CLOSERS = new Set(['?', '.', ',', ';', '!', 'and', 'or', 'who', 'that', 'which']);

/**
 * "patients with hypertension.", "students enlisted in the navy?", "paid through paypal,": a
 * lowercase noun alone after a preposition, closing its clause, is often a stored value; a guess.
 */
export function isClosingObjectValue(tokens: QuestionToken[], i: number): boolean {
  const t = tokens[i];
  if (t.pos !== 'NOUN' || t.lemma !== t.lower || !/^\p{Ll}/u.test(t.text)) return false;
  const next = tokens[i + 1];
  if (next && !CLAUSE_CLOSERS.has(next.lower)) return false;
  let j = i - 1;
  if (['the', 'a', 'an'].includes(tokens[j]?.lower ?? '')) j--;
  return OBJECT_PREPOSITIONS.has(tokens[j]?.lower ?? '') && tokens[j - 1]?.pos !== 'DET';
}
