import { chunkStartingAt, phraseOf } from './noun-chunks';
import type { QuestionToken } from './question-tokens';

/**
 * GROUP BY and DISTINCT cues. "for each department", "per country", "by each team", "of each
 * year", "in every city" group by the noun after the quantifier; "different", "distinct" and
 * "unique" ask for DISTINCT.
 */

const GROUPING_QUANTIFIERS = new Set(['each', 'every']);
/** "for every pilot" reads as "for all pilots" far more often than as grouping, so "every" groups after fewer words. */
const GROUPING_PREPOSITIONS: Record<string, Set<string>> = {
  each: new Set(['for', 'in', 'by', 'per', 'at', 'from', 'within', 'on', 'across']),
  every: new Set(['in', 'by', 'per']),
};
const DISTINCT_WORDS = new Set(['different', 'distinct', 'unique']);

/** Each GROUP BY phrase with the token where its chunk starts. */
export function findGroupBy(tokens: QuestionToken[]): { phrase: string; start: number }[] {
  const groups: { phrase: string; start: number }[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const w = tokens[i].lower;
    let start = -1;
    // "for each department", "in every city", "from each country"; "the name of every singer" is not grouping.
    if (GROUPING_QUANTIFIERS.has(w) && GROUPING_PREPOSITIONS[w].has(tokens[i - 1]?.lower ?? '')) start = i + 1;
    else if (w === 'per' && tokens[i + 1]) start = i + 1;
    if (start < 0) continue;
    const chunk = chunkStartingAt(tokens, start);
    // "each of the singers" groups by singer as well.
    const ofChunk = !chunk && tokens[start]?.lower === 'of' ? chunkStartingAt(tokens, start + 1) : null;
    const found = chunk ?? ofChunk;
    if (found && !groups.some((g) => g.phrase === phraseOf(found))) groups.push({ phrase: phraseOf(found), start: found[0].index });
  }
  return groups;
}

export function asksDistinct(tokens: QuestionToken[]): boolean {
  return tokens.some((t) => DISTINCT_WORDS.has(t.lower));
}
