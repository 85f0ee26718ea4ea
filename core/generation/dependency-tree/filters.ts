import { attachColumn, contextBefore } from './column-phrase';
import { comparisonAfter, comparisonBefore } from './comparison-cues';
import type { Filter, QuestionLiteral } from './question-tree';
import { phraseOf } from './noun-chunks';
import type { QuestionToken } from './question-tokens';

/**
 * Turns literals into conditions: each gets its comparison and column phrase, then neighbours
 * joined by "between ... and" / "from ... to" become BETWEEN, and values joined by "or" become IN
 * ("Ohio or Utah", "2016 or 2017"). Values joined by "and" stay separate conditions,
 * because "both 2016 and 2017" asks for each of them.
 */

/** Tokens that close a clause: a literal's comparison and column never reach across them. */
const CLAUSE_BREAKS = new Set([',', ';', '?', '.', '!', '(', ')', 'and', 'or', 'who', 'which', 'that', 'whose', 'where', 'when', 'while']);
const RANGE_OPENERS = new Set(['between', 'from']);
const RANGE_JOINERS = new Set(['and', 'to', '-', '–', 'through', 'until', 'till']);
/** May stand between two alternatives of one column: "Ohio or the state of Utah". */
const ALTERNATIVE_FILLERS = new Set(['the', 'a', 'an', 'of', 'in', 'from', 'either']);

export function buildFilters(tokens: QuestionToken[], literals: QuestionLiteral[]): Filter[] {
  const literalAt = new Set(literals.flatMap((l) => range(l.tokens[0], l.tokens[1])));
  const isLiteral = (i: number): boolean => literalAt.has(i);
  const filters: Filter[] = [];
  let previousEnd = -1;
  for (let k = 0; k < literals.length; k++) {
    const literal = literals[k];
    const [first, last] = literal.tokens;
    const floor = clauseFloor(tokens, first, previousEnd);
    const between = rangePartner(tokens, literals, k, floor);
    const comparison = comparisonBefore(tokens, between ? between.openerIndex : first, floor);
    // A value before a noun restricts it ("female students") or counts it ("3 cylinders"), unless a
    // comparison precedes the number ("more than 36 months" compares the loan validity before it).
    const beforeNoun = literal.kind === 'word' || (literal.kind !== 'year' && typeof literal.value === 'number' && comparison.cueStart === first);
    const attached = comparison.columnBetween
      ? {
          column: phraseOf(tokens.slice(comparison.columnBetween[0], comparison.columnBetween[1] + 1)),
          context: contextBefore(tokens, floor, first),
          nounAfter: false,
        }
      : comparison.impliesColumn
        ? { column: null, context: contextBefore(tokens, floor, first), nounAfter: false }
        : attachColumn(
            tokens,
            between ? between.openerIndex : comparison.cueStart,
            floor,
            first,
            comparisonAfter(tokens, last) ? last + 2 : last,
            isLiteral,
            beforeNoun || comparisonAfter(tokens, last) !== null,
            literal.kind !== 'year' && literal.kind !== 'date',
          );
    const { nounAfter, ...where } = attached;
    if (between) {
      filters.push({ ...where, operator: 'BETWEEN', values: [literal, literals[k + 1]], negated: comparison.negated, aggregate: null });
      previousEnd = literals[k + 1].tokens[1];
      k++;
      continue;
    }
    const after = comparisonAfter(tokens, last);
    const operator = after ?? comparison.operator;
    const alternative = filters.length > 0 ? joinsAsAlternative(tokens, filters[filters.length - 1], literal) : false;
    if (alternative && comparison.operator === '=' && !comparison.negated) {
      const previous = filters[filters.length - 1];
      previous.values.push(literal);
      previous.operator = previous.negated ? 'NOT IN' : 'IN';
    } else {
      // "at least 10 orders", "2 or more chapters": comparing how many rows there are, whereas an
      // exact "3 cylinders" more often reads a stored count.
      const countsRows = nounAfter && operator !== '=' && typeof literal.value === 'number' && isPlural(tokens, after ? last + 3 : last + 1);
      const filter: Filter = { ...where, operator, values: [literal], negated: comparison.negated, aggregate: countsRows ? 'COUNT' : null };
      if (comparison.match) filter.match = comparison.match;
      filters.push(filter);
    }
    previousEnd = after ? last + 2 : last;
  }
  return filters;
}

/** The noun chunk starting at `i` ends in a plural noun ("car makers", "flights"). */
function isPlural(tokens: QuestionToken[], i: number): boolean {
  let j = i;
  while (j + 1 < tokens.length && (tokens[j + 1].pos === 'NOUN' || tokens[j].pos === 'ADJ')) j++;
  return tokens[j]?.pos === 'NOUN' && tokens[j].lemma !== tokens[j].lower;
}

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}

/** The last clause break (or previous literal) before token `first`. */
function clauseFloor(tokens: QuestionToken[], first: number, previousEnd: number): number {
  for (let i = first - 1; i > previousEnd; i--) {
    if (tokens[i].quoted) continue;
    if (CLAUSE_BREAKS.has(tokens[i].lower)) return i;
  }
  return previousEnd;
}

/** "between 5 and 10", "from 1990 to 2000", "5 to 17": the next literal closes a range opened here. */
function rangePartner(tokens: QuestionToken[], literals: QuestionLiteral[], k: number, floor: number): { openerIndex: number } | null {
  const next = literals[k + 1];
  const literal = literals[k];
  if (!next || typeof literal.value !== typeof next.value) return null;
  const gap = tokens.slice(literal.tokens[1] + 1, next.tokens[0]).filter((t) => !['the', 'a', '$'].includes(t.lower));
  if (gap.length !== 1 || !RANGE_JOINERS.has(gap[0].lower)) return null;
  for (let i = literal.tokens[0] - 1; i >= Math.max(0, literal.tokens[0] - 4) && i > floor; i--) {
    if (RANGE_OPENERS.has(tokens[i].lower)) return { openerIndex: i };
  }
  // A bare "X to Y" of numbers is a range too ("the ages of 5 to 17"); "X and Y" is not.
  return gap[0].lower !== 'and' && typeof literal.value === 'number' ? { openerIndex: literal.tokens[0] } : null;
}

/** "A or B", "either A or B", "A or the state of B": B is another value for A's column. */
function joinsAsAlternative(tokens: QuestionToken[], previous: Filter, literal: QuestionLiteral): boolean {
  if (previous.operator !== '=' && previous.operator !== 'IN' && previous.operator !== '!=' && previous.operator !== 'NOT IN') return false;
  const last = previous.values[previous.values.length - 1];
  if (typeof last.value !== typeof literal.value) return false;
  const gap = tokens.slice(last.tokens[1] + 1, literal.tokens[0]);
  if (gap.length === 0 || (gap[0].lower !== 'or' && gap[0].text !== ',')) return false;
  return gap.slice(1).every((t) => ALTERNATIVE_FILLERS.has(t.lower) || t.lower === 'or' || (t.pos === 'NOUN' && gap.length <= 5));
}
