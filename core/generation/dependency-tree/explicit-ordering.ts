import { chunkStartingAt, phraseOf } from './noun-chunks';
import type { Ordering } from './question-tree';
import type { QuestionToken } from './question-tokens';

/**
 * Orderings the question spells out: "sorted / ordered / ranked / arranged by X", "order by X",
 * "in order of X", with a direction from "descending", "ascending", "alphabetical",
 * "from highest to lowest", "in reverse order". No LIMIT: nothing is cut off.
 */

const SORT_VERBS = new Set(['sort', 'order', 'rank', 'arrange', 'list']);
const DESCENDING = [
  'descending',
  'decreasing',
  'reverse',
  'desc',
  'highest to lowest',
  'largest to smallest',
  'most to least',
  'high to low',
  'newest to oldest',
  'latest to earliest',
  'oldest to youngest',
  'biggest to smallest',
  'most recent to',
];
const ASCENDING = [
  'ascending',
  'increasing',
  'alphabetical',
  'alphabetically',
  'asc',
  'lowest to highest',
  'smallest to largest',
  'least to most',
  'low to high',
  'oldest to newest',
  'earliest to latest',
  'youngest to oldest',
  'smallest to biggest',
  'lexicographic',
  'lexicographical',
];

export function findExplicitOrdering(tokens: QuestionToken[]): Ordering[] {
  const text = ` ${tokens
    .filter((t) => t.lower !== 'the')
    .map((t) => t.lower)
    .join(' ')} `;
  const direction: Ordering['direction'] | null = DESCENDING.some((d) => text.includes(` ${d} `))
    ? 'DESC'
    : ASCENDING.some((a) => text.includes(` ${a} `))
      ? 'ASC'
      : null;
  const orderings: Ordering[] = [];
  for (let i = 0; i + 1 < tokens.length; i++) {
    const sortBy = SORT_VERBS.has(tokens[i].lemma) && tokens[i + 1].lower === 'by';
    const inOrderOf = tokens[i].lower === 'order' && tokens[i + 1].lower === 'of' && (tokens[i - 1]?.lower === 'in' || tokens[i - 2]?.lower === 'in');
    if (!sortBy && !inOrderOf) continue;
    const chunk = chunkStartingAt(tokens, i + 2);
    if (!chunk) continue;
    const cue = `${tokens[i].lower} ${tokens[i + 1].lower}`;
    // "sorted by the number of airports" orders by a count of the airports.
    const last = chunk[chunk.length - 1];
    const counted = ['number', 'count'].includes(last.lower) && tokens[last.index + 1]?.lower === 'of' ? chunkStartingAt(tokens, last.index + 2) : null;
    if (counted) orderings.push({ by: phraseOf(counted), direction: direction ?? 'ASC', aggregate: 'COUNT', cue });
    else orderings.push({ by: phraseOf(chunk), direction: direction ?? 'ASC', aggregate: null, cue });
  }
  // "in descending order" with no "by": the order applies to what is asked for.
  if (orderings.length === 0 && direction && /\border\b|alphabetical/.test(text))
    orderings.push({ by: '', direction, aggregate: null, cue: direction === 'DESC' ? 'descending order' : 'ascending order' });
  return orderings;
}
