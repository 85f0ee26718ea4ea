import type { QuotedSpan } from '../../indexing/question-literals';
import { followsLikeCue } from './comparison-cues';
import { isPlausibleYear, normaliseDate } from './date-values';
import { digitsValue, isNumberWord, numberWordsValue } from './number-words';
import type { QuestionLiteral } from './question-tree';
import type { QuestionToken, TokenizedQuestion } from './question-tokens';
import { isSuperlative } from './superlatives';

/**
 * Every literal the question states, in question order and never overlapping: quoted text
 * first (the writer marked it), then wink-nlp's number, money, percent and date entities and any
 * other number, then names (runs of capitalised words: "France", "New York", "Bob Smith"),
 * codes ("TR007_4_19", "K-12") and the words after "named"/"called". Gold SQL literals are
 * mostly these, so each becomes a filter value unless it is a LIMIT count.
 */
export function extractLiterals(tokenized: TokenizedQuestion, quoted: QuotedSpan[]): QuestionLiteral[] {
  const { tokens } = tokenized;
  const taken = new Array<boolean>(tokens.length).fill(false);
  const literals: QuestionLiteral[] = [];
  const add = (first: number, last: number, literal: Omit<QuestionLiteral, 'tokens'>): void => {
    for (let i = first; i <= last; i++) if (taken[i]) return;
    for (let i = first; i <= last; i++) taken[i] = true;
    literals.push({ ...literal, tokens: [first, last] });
  };

  for (const span of quoted) {
    const covered = tokens.filter((t) => t.start >= span.start && t.end <= span.end);
    if (covered.length === 0) continue;
    add(covered[0].index, covered[covered.length - 1].index, { text: span.text, value: span.text, kind: 'quoted' });
  }
  for (const entity of tokenized.entities) {
    const literal = entityLiteral(tokenized, entity.type, entity.first, entity.last);
    if (literal) add(entity.first, entity.last, literal);
  }
  for (let i = 0; i < tokens.length; i++) {
    const glued = gluedCodeAt(tokens, i);
    if (glued && !taken[i]) add(i, glued.last, glued.literal);
  }
  for (let i = 0; i < tokens.length; i++) {
    if (taken[i]) continue;
    const number = numberAt(tokens, i);
    if (number) {
      add(i, number.last, number.literal);
      continue;
    }
    const name = nameAt(tokens, i, taken);
    if (name) {
      add(name.first, name.last, name.literal);
      continue;
    }
    if (!isWord(tokens[i])) continue;
    if (followsLikeCue(tokens, i) && !isNumberWord(tokens[i].lower)) {
      // "the post about linear regression": the pattern runs over the content words that follow.
      let last = i;
      while (last + 1 < tokens.length && last - i < 2 && !taken[last + 1] && isWord(tokens[last + 1]) && ['NOUN', 'ADJ', 'PROPN', 'X'].includes(tokens[last + 1].pos)) last++;
      add(i, last, wordLiteral(tokens, i, last));
    } else if (isPredicateValue(tokens, i) || isAttributiveValue(tokens, i) || isCategoryModifier(tokens, i, taken) || isAgent(tokens, i)) {
      add(i, i, wordLiteral(tokens, i, i));
    }
  }
  return literals.sort((a, b) => a.tokens[0] - b.tokens[0]);
}

function spanText(tokenized: TokenizedQuestion, first: number, last: number): string {
  return tokenized.question.slice(tokenized.tokens[first].start, tokenized.tokens[last].end);
}

function entityLiteral(tokenized: TokenizedQuestion, type: string, first: number, last: number): Omit<QuestionLiteral, 'tokens'> | null {
  const text = spanText(tokenized, first, last);
  if (type === 'DATE') {
    const iso = normaliseDate(text);
    if (iso) return { text, value: iso, kind: 'date' };
    const year = digitsValue(text);
    if (year !== null && isPlausibleYear(year)) return { text, value: year, kind: 'year' };
    return null; // "2014-2015", "the 1990s": the number pass below reads their years one by one
  }
  if (type === 'MONEY' || type === 'PERCENT') {
    const value = digitsValue(text.replace(/\s+/g, '').replace(/(?:dollars?|percent)$/i, ''));
    return value === null ? null : { text, value, kind: type === 'MONEY' ? 'money' : 'percent' };
  }
  return null; // CARDINAL and the rest: the number pass handles single numbers with its own rules
}

/**
 * Identifiers the tokenizer splits but the question writes as one word: "TR000_2_5", "10E",
 * "21:20:00". Adjacent tokens with no space between them form one code when the run mixes digits
 * with letters, underscores or colons.
 */
function gluedCodeAt(tokens: QuestionToken[], i: number): { last: number; literal: Omit<QuestionLiteral, 'tokens'> } | null {
  if (i > 0 && tokens[i - 1].end === tokens[i].start && /[\p{L}\p{N}_]$/u.test(tokens[i - 1].text)) return null;
  let last = i;
  while (last + 1 < tokens.length && tokens[last + 1].start === tokens[last].end && /^[\p{L}\p{N}_:\-./]+$/u.test(tokens[last + 1].text) && tokens[last + 1].text !== "'s") last++;
  const text = tokens.slice(i, last + 1).map((t) => t.text).join('').replace(/[.\-/]+$/, '');
  const single = last === i;
  const isTime = /^\d{1,2}:\d{2}(?::\d{2})?$/.test(text);
  if (!isTime && (single || !/\d/.test(text) || !/[\p{L}_:]/u.test(text))) return null;
  if (!/^[\p{L}\p{N}_:\-./]+$/u.test(text)) return null;
  while (last > i && tokens[last].end > tokens[i].start + text.length) last--;
  return { last, literal: { text, value: text, kind: 'code' } };
}

/** A number starting at token i (digits, or a run of number words), as a literal. */
function numberAt(tokens: QuestionToken[], i: number): { last: number; literal: Omit<QuestionLiteral, 'tokens'> } | null {
  const token = tokens[i];
  const digits = digitsValue(token.text);
  if (digits !== null) {
    const percent = tokens[i + 1]?.text === '%' || tokens[i + 1]?.lower === 'percent';
    const kind = percent ? 'percent' : isPlausibleYear(digits) && !token.text.includes('.') && !token.text.includes(',') ? 'year' : 'number';
    return { last: percent ? i + 1 : i, literal: { text: token.text, value: digits, kind } };
  }
  if (!isNumberWord(token.lower) || !isStandaloneNumberWord(tokens, i)) return null;
  let last = i;
  while (last + 1 < tokens.length && (isNumberWord(tokens[last + 1].lower) || (tokens[last + 1].lower === 'and' && ['hundred', 'thousand', 'million'].includes(tokens[last].lower) && isNumberWord(tokens[last + 2]?.lower ?? '')))) last++;
  const words = tokens.slice(i, last + 1).map((t) => t.text);
  const value = numberWordsValue(words);
  return value === null ? null : { last, literal: { text: words.join(' '), value, kind: 'number' } };
}

/** "one" is a pronoun in "which one", "one of", "no one"; every other number word is a number. */
function isStandaloneNumberWord(tokens: QuestionToken[], i: number): boolean {
  if (tokens[i].lower !== 'one') return true;
  const before = tokens[i - 1]?.lower ?? '';
  const after = tokens[i + 1]?.lower ?? '';
  return !['which', 'each', 'any', 'every', 'no', 'the', 'this', 'that', 'only'].includes(before) && after !== 'of' && after !== 'another';
}

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

/** Connectors kept inside a name when another capitalised word follows ("Bank of America", "Paul di Resta"). */
const NAME_CONNECTORS = new Set(['of', 'de', 'di', 'da', 'du', 'la', 'le', 'van', 'von', 'der', 'del', 'y', '&', '-', "'"]);

/** Where a name introduced by "named" stops. */
const COMPASS_WORDS = new Set(['north', 'south', 'east', 'west', 'northern', 'southern', 'eastern', 'western', 'central', 'northeast', 'northwest', 'southeast', 'southwest']);

const NAMED_STOPS = new Set(['and', 'or', 'that', 'which', 'who', 'with', 'in', 'for', 'from', 'of', 'is', 'are', 'was', 'were', 'has', 'have', 'by', 'on', 'at', 'whose', 'what', 'the']);

/** Words that introduce a name however it is written ("a user called csgillespie"). */
const NAMING_WORDS = new Set(['named', 'called', 'titled', 'entitled', 'nicknamed', 'username']);

function isCode(token: QuestionToken): boolean {
  return /\p{L}/u.test(token.text) && /\d/.test(token.text) && !/^\d+(st|nd|rd|th|s)$/i.test(token.text);
}

function isWord(token: QuestionToken): boolean {
  return /^[\p{L}][\p{L}\p{N}'-]*$/u.test(token.text);
}

/** Adjectives that describe rows or quantities rather than being stored values. */
const NON_VALUE_PREDICATES = new Set(['many', 'much', 'more', 'less', 'same', 'different', 'available', 'present', 'there', 'able', 'not', 'also', 'only', 'all', 'both', 'true', 'known', 'unknown', 'null', 'empty', 'higher', 'lower', 'larger', 'smaller', 'greater', 'bigger', 'equal', 'above', 'below', 'over', 'under']);
const COPULAS = new Set(['is', 'are', 'was', 'were', 'as', 'be', 'being']);
const CLAUSE_ENDS = new Set(['?', '.', ',', ';', '!', 'and', 'or', 'that', 'which', 'who', 'with', 'have', 'has', 'had', 'in', 'for', 'from', 'but']);

/**
 * "whose status is restricted", "cards that are all legal", "frame effect as extendedart": a
 * word the question predicates of a noun, closing its clause, is a stored category value.
 */
function isPredicateValue(tokens: QuestionToken[], i: number): boolean {
  const t = tokens[i];
  if (NON_VALUE_PREDICATES.has(t.lower) || isGraded(t) || !['ADJ', 'NOUN', 'PROPN', 'VERB', 'X'].includes(t.pos)) return false;
  if (t.pos === 'VERB' && !t.lower.endsWith('ed')) return false;
  const next = tokens[i + 1];
  if (next && !CLAUSE_ENDS.has(next.lower)) return false;
  // "accounts are opened in 1993" is a passive verb; "status is restricted." closes on the value.
  if (t.pos === 'VERB' && next && !['?', '.', ',', ';', '!', 'and', 'or', 'have', 'has', 'had'].includes(next.lower)) return false;
  let j = i - 1;
  while (j >= 0 && ['all', 'the', 'a', 'an'].includes(tokens[j].lower)) j--;
  if (j < 1 || !COPULAS.has(tokens[j].lower)) return false;
  return tokens[j - 1].pos === 'NOUN';
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
function isAttributiveValue(tokens: QuestionToken[], i: number): boolean {
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
function wordLiteral(tokens: QuestionToken[], first: number, last: number): Omit<QuestionLiteral, 'tokens'> {
  const text = tokens.slice(first, last + 1).map((t) => t.text).join(' ');
  const compound = first === last ? /^(\p{L}+)-\p{L}+ed$/u.exec(text) : null;
  return { text, value: compound ? compound[1] : text, kind: 'word' };
}

/**
 * Head nouns that name a category, whose modifier is the category's value: "pauper format",
 * "expansion type", "owner disposition" is too specific, but "X type / status / format / class /
 * level / tag / badge / role / language / genre / power" is how English names a value of X.
 */
const CATEGORY_NOUNS = new Set(
  'type types kind kinds format formats status category categories class classes tag tags badge badges label role roles genre genres language languages power powers rarity edition breed species position positions mode style layout'.split(' '),
);

function isCategoryModifier(tokens: QuestionToken[], i: number, taken: boolean[]): boolean {
  const t = tokens[i];
  const head = tokens[i + 1];
  if (!head || !CATEGORY_NOUNS.has(head.lower) || t.sentenceStart) return false;
  if (!['NOUN', 'PROPN', 'X', 'ADJ'].includes(t.pos) || STRUCTURAL_ADJECTIVES.has(t.lower) || CATEGORY_NOUNS.has(t.lower)) return false;
  // "the bond type of ...", "which language": with a determiner or an "of" after it, the phrase names
  // the attribute being asked about rather than giving its value ("in pauper format", "has flight power").
  // After a value ("the PPT template type") the modifier is part of the attribute's name.
  const before = tokens[i - 1];
  if (before && (before.pos === 'DET' || before.pos === 'PRON' || before.pos === 'ADJ' || taken[i - 1])) return false;
  return tokens[i + 2]?.lower !== 'of';
}

/** "sorted by age", "grouped by country": the noun after these names a column, not an agent. */
const ARRANGING_VERBS = new Set(['sort', 'order', 'rank', 'arrange', 'group', 'list', 'follow', 'measure', 'count', 'classify', 'categorize', 'organize', 'divide', 'separate', 'break', 'split', 'partition']);

/** "owned by csgillespie", "illustrated by artist": the agent after a participle and "by" is a value, whatever its case. */
function isAgent(tokens: QuestionToken[], i: number): boolean {
  const by = tokens[i - 1];
  const verb = tokens[i - 2];
  if (!by || by.lower !== 'by' || !verb || verb.pos !== 'VERB' || !verb.lower.endsWith('ed') || ARRANGING_VERBS.has(verb.lemma)) return false;
  const next = tokens[i + 1];
  return ['NOUN', 'PROPN', 'X'].includes(tokens[i].pos) && (!next || next.pos === 'PUNCT' || ['and', 'or', 'in', 'on', 'with', 'that', 'who'].includes(next.lower));
}

function isNameWord(token: QuestionToken): boolean {
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

function nameAt(tokens: QuestionToken[], i: number, taken: boolean[]): { first: number; last: number; literal: Omit<QuestionLiteral, 'tokens'> } | null {
  const named = NAMING_WORDS.has(tokens[i - 1]?.lower ?? '') && /^[\p{L}\p{N}]/u.test(tokens[i].text);
  if (!named && !isNameWord(tokens[i])) return null;
  let last = i;
  for (let j = i + 1; j < tokens.length && !taken[j]; j++) {
    if (isNameWord(tokens[j]) && !tokens[j].sentenceStart) last = j;
    else if (named && j - i < 5 && isWord(tokens[j]) && !NAMED_STOPS.has(tokens[j].lower)) last = j;
    else if (NAME_CONNECTORS.has(tokens[j].lower) && tokens[j + 1] && !taken[j + 1] && isNameWord(tokens[j + 1])) continue;
    else break;
  }
  // "east Bohemia", "south Bohemia": a lowercase compass word is part of the place name after it.
  const first = i > 0 && COMPASS_WORDS.has(tokens[i - 1].lower) && !taken[i - 1] && !named ? i - 1 : i;
  // "Agent 13", "PO Box 1040", "Breakfast Provision 2": a number written right after a name belongs to it.
  const after = tokens[last + 1];
  if (after && !taken[last + 1] && /^\d+$/.test(after.text) && after.start === tokens[last].end + 1 && !(tokens[last + 2] && tokens[last + 2].pos === 'NOUN')) last++;
  const text = tokens
    .slice(first, last + 1)
    .map((t, k) => (k > 0 && t.start > tokens[first + k - 1].end ? ' ' : '') + t.text)
    .join('');
  const kind = last === i && first === i && isCode(tokens[i]) ? 'code' : 'proper_noun';
  return { first, last, literal: { text, value: text, kind } };
}
