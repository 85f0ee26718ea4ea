import type { FilterOperator } from './question-tree';
import type { QuestionToken } from './question-tokens';

/**
 * The comparison a question states just before a literal ("older than 56", "at least 3",
 * "starts with 'A'", "not in 1991"). English puts the comparison word between the column phrase
 * and the value, so reading backwards from the value finds both the operator and where the
 * column phrase ends.
 */
export interface Comparison {
  operator: FilterOperator;
  negated: boolean;
  match?: 'contains' | 'starts' | 'ends';
  /** Index of the first token of the cue; the column phrase, if any, ends before it. */
  cueStart: number;
  /** "above height 180": the column phrase sits between the cue and the value, at these token indices. */
  columnBetween?: [number, number];
  /** The cue names the column itself ("older than" is about age), so no noun is attached. */
  impliesColumn: boolean;
}

type Cue = { words: string[]; operator: FilterOperator; match?: Comparison['match'] };

const phrase = (text: string, operator: FilterOperator, match?: Comparison['match']): Cue => ({ words: text.split(' '), operator, match });

/** Longest first, so "no more than" wins over "more than". */
const CUES: Cue[] = [
  ...['no more than', 'not more than', 'no greater than', 'not greater than', 'not exceeding', 'at most', 'up to', 'less than or equal to', 'maximum of'].map(
    (p) => phrase(p, '<='),
  ),
  ...[
    'no less than',
    'not less than',
    'no fewer than',
    'not fewer than',
    'at least',
    'greater than or equal to',
    'more than or equal to',
    'minimum of',
    'since',
  ].map((p) => phrase(p, '>=')),
  ...[
    'more than',
    'greater than',
    'larger than',
    'higher than',
    'bigger than',
    'over',
    'above',
    'exceeding',
    'exceeds',
    'exceed',
    'after',
    'beyond',
    'later than',
  ].map((p) => phrase(p, '>')),
  ...['less than', 'fewer than', 'smaller than', 'lower than', 'below', 'under', 'before', 'earlier than', 'prior to'].map((p) => phrase(p, '<')),
  ...['not equal to', 'other than', 'except', 'excluding', 'except for', 'apart from', 'different from'].map((p) => phrase(p, '!=')),
  ...['equal to', 'equals', 'same as'].map((p) => phrase(p, '=')),
  ...[
    'contain',
    'contains',
    'containing',
    'contained',
    'include',
    'includes',
    'including',
    'like',
    'with the word',
    'with the letter',
    'the word',
    'the letter',
    'the substring',
    'mention',
    'mentions',
    'mentioning',
    'about',
    'regarding',
    'concerning',
  ].map((p) => phrase(p, 'LIKE', 'contains')),
  ...['start with', 'starts with', 'starting with', 'started with', 'begin with', 'begins with', 'beginning with', 'prefix'].map((p) =>
    phrase(p, 'LIKE', 'starts'),
  ),
  ...['end with', 'ends with', 'ending with', 'ended with', 'suffix'].map((p) => phrase(p, 'LIKE', 'ends')),
].sort((a, b) => b.words.length - a.words.length);

/** "<comparative adjective> than": these name the column they compare ("older than" → age). */
export const SMALLER_COMPARATIVES = new Set([
  'younger',
  'shorter',
  'lighter',
  'cheaper',
  'smaller',
  'lower',
  'earlier',
  'fewer',
  'less',
  'worse',
  'poorer',
  'slower',
  'thinner',
  'narrower',
  'closer',
  'nearer',
  'sooner',
]);

const NEGATORS = new Set(['not', "n't", 'never', 'no', 'without', 'neither', 'nor']);
/** Skipped between a cue and its value ("more than the 3", "over $100", "with the letter"). */
const FILLERS = new Set(['all', 'the', 'a', 'an', '$', '€', '£', 'usd', 'eur', 'value', 'of', '"', "'", '“', '‘']);

/**
 * Reads backwards from the literal at `valueStart` to `floor` (the end of the previous literal
 * or clause, exclusive). Negation counts only inside that window, because wink-nlp's negation
 * flag runs on to the end of the clause ("did not play in 1991 and earned $1,000").
 */
export function comparisonBefore(tokens: QuestionToken[], valueStart: number, floor: number): Comparison {
  let end = valueStart - 1;
  while (end > floor && FILLERS.has(tokens[end].lower) && tokens[end].lower !== 'of') end--;
  const from = Math.max(floor + 1, valueStart - 6);
  for (const cue of CUES) {
    const first = end - cue.words.length + 1;
    if (first <= floor) continue;
    if (!cue.words.every((w, k) => tokens[first + k].lower === w)) continue;
    // The cue's own words are not a negation of it ("no more than" is already <=).
    return withNegation({ operator: cue.operator, match: cue.match, cueStart: first, negated: windowNegated(tokens, from, first), impliesColumn: false });
  }
  if (end > floor && tokens[end].lower === 'than' && end - 1 > floor) {
    const comparative = tokens[end - 1].lower;
    const operator: FilterOperator = SMALLER_COMPARATIVES.has(comparative) ? '<' : '>';
    return withNegation({ operator, cueStart: end - 1, negated: windowNegated(tokens, from, end - 1), impliesColumn: true });
  }
  // "above height 180", "more than 3 bus routes": cue, then the column noun, then the value.
  let chunkStart = end;
  while (chunkStart > floor && chunkStart > end - 3 && (tokens[chunkStart].pos === 'NOUN' || tokens[chunkStart].pos === 'ADJ')) chunkStart--;
  if (chunkStart < end && tokens[end].pos === 'NOUN') {
    const inner = comparisonBefore(tokens, chunkStart + 1, floor);
    if (inner.operator !== '=' || inner.negated) return { ...inner, columnBetween: [chunkStart + 1, end] };
  }
  // "or more" / "or less" follow the value; the caller passes what follows through `comparisonAfter`.
  return withNegation({ operator: '=', cueStart: end + 1, negated: windowNegated(tokens, from, valueStart), impliesColumn: false });
}

/**
 * A LIKE cue ends just before token `i` ("contains w", "starting with the letter A", "the word
 * computer"): whatever word follows is the pattern, even lowercase and unquoted.
 */
export function followsLikeCue(tokens: QuestionToken[], i: number): boolean {
  if (PATTERN_NOUNS.has(tokens[i].lower)) return false;
  // The cue may itself end in a pattern noun ("the substring the garden", "has the word garden").
  for (let end = i - 1; end >= 0; end--) {
    if (CUES.some((cue) => cue.operator === 'LIKE' && cue.words.every((w, k) => tokens[end - cue.words.length + 1 + k]?.lower === w))) return true;
    if (!PATTERN_NOUNS.has(tokens[end].lower)) return false;
  }
  return false;
}
const PATTERN_NOUNS = new Set(['the', 'a', 'letter', 'letters', 'word', 'words', 'substring', 'string', 'phrase', 'character', 'characters', 'text', 'term']);

/** "3 or more", "5 or fewer": the comparison written after the value. */
export function comparisonAfter(tokens: QuestionToken[], valueEnd: number): FilterOperator | null {
  const a = tokens[valueEnd + 1]?.lower;
  const b = tokens[valueEnd + 2]?.lower;
  if ((a === 'or' || a === 'and') && (b === 'more' || b === 'greater' || b === 'above' || b === 'higher' || b === 'over')) return '>=';
  if ((a === 'or' || a === 'and') && (b === 'less' || b === 'fewer' || b === 'below' || b === 'lower' || b === 'under')) return '<=';
  return null;
}

function windowNegated(tokens: QuestionToken[], from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (NEGATORS.has(tokens[i].lower)) return true;
  return false;
}

const NEGATED_OPERATOR: Partial<Record<FilterOperator, FilterOperator>> = {
  '=': '!=',
  LIKE: 'NOT LIKE',
  IN: 'NOT IN',
  '>': '<=',
  '<': '>=',
  '>=': '<',
  '<=': '>',
};

/** Folds a negation into the operator, except where the cue already carries it ("no more than"). */
function withNegation(c: Comparison): Comparison {
  if (c.operator === '!=') return { ...c, negated: true };
  if (!c.negated) return c;
  return { ...c, operator: NEGATED_OPERATOR[c.operator] ?? c.operator };
}

export function negateOperator(operator: FilterOperator): FilterOperator {
  return NEGATED_OPERATOR[operator] ?? operator;
}
