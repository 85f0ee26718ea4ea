import type { QuotedSpan } from '../../indexing/question-literals';
import { followsLikeCue } from './comparison-cues';
import { isPlausibleYear, normaliseDate } from './date-values';
import { nameAt, isWord } from './name-literals';
import { joinNameRuns } from './name-runs';
import { gluedCodeAt, numberAt } from './number-literals';
import { digitsValue, isNumberWord } from './number-words';
import type { QuestionLiteral } from './question-tree';
import type { TokenizedQuestion } from './question-tokens';
import {
  isAgent,
  isAttributiveValue,
  isCategoryModifier,
  isClosingObjectValue,
  isPredicateValue,
  isNounModifierValue,
  isRoleValue,
  wordLiteral,
} from './word-values';

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
      // "the post about garden ponds": the pattern runs over the content words that follow.
      let last = i;
      while (
        last + 1 < tokens.length &&
        last - i < 2 &&
        !taken[last + 1] &&
        isWord(tokens[last + 1]) &&
        ['NOUN', 'ADJ', 'PROPN', 'X'].includes(tokens[last + 1].pos)
      )
        last++;
      add(i, last, wordLiteral(tokens, i, last));
    } else if (isPredicateValue(tokens, i) || isAgent(tokens, i) || isRoleValue(tokens, i) || isClosingObjectValue(tokens, i)) {
      add(i, i, wordLiteral(tokens, i, i));
    } else if (isAttributiveValue(tokens, i) || isCategoryModifier(tokens, i, taken) || isNounModifierValue(tokens, i)) {
      // A modifier's value may be stored alone ('female') or with its noun ('Seasonal Discount'): the text keeps both.
      let head = i + 1;
      while (head + 1 < tokens.length && head - i < 2 && tokens[head + 1].pos === 'NOUN' && !taken[head + 1]) head++;
      add(i, i, { ...wordLiteral(tokens, i, i), text: spanText(tokenized, i, head) });
    }
  }
  return joinNameRuns(
    tokens,
    literals.sort((a, b) => a.tokens[0] - b.tokens[0]),
  );
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
