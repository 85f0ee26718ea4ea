import { chunkWithOwner, phraseOf } from './noun-chunks';
import type { Aggregate, AggregateFunction } from './question-tree';
import type { QuestionToken } from './question-tokens';

/**
 * Aggregates the question asks for by name: "how many" / "number of" / "count" → COUNT,
 * "average" / "mean" → AVG, "total" / "sum" → SUM, "maximum" → MAX, "minimum" → MIN. Superlatives
 * ("highest", "most") are ordering, decided in `superlatives.ts`.
 */

const SINGLE_WORD_CUES: Record<string, AggregateFunction> = {
  average: 'AVG',
  avg: 'AVG',
  mean: 'AVG',
  averagely: 'AVG',
  total: 'SUM',
  sum: 'SUM',
  combined: 'SUM',
  maximum: 'MAX',
  max: 'MAX',
  minimum: 'MIN',
  min: 'MIN',
  count: 'COUNT',
  counts: 'COUNT',
};

/** A share of rows is a ratio of two counts: COUNT(rows meeting the condition) * 100 / COUNT(rows). */
export const SHARE_CUES = new Set(['percentage', 'percent', 'proportion', 'ratio', 'share']);
for (const cue of SHARE_CUES) SINGLE_WORD_CUES[cue] = 'COUNT';

const NUMBER_OF_OWNERS = new Set(['phone', 'id', 'serial', 'account', 'room', 'street', 'house', 'average', 'mean', 'maximum', 'minimum', 'max', 'min']);

/** Returns the aggregates and the token indices of their cue words (the projection skips them). */
export function findAggregates(tokens: QuestionToken[]): {
  aggregates: Aggregate[];
  cueTokens: Set<number>;
  cues: { tokens: [number, number]; text: string }[];
} {
  const aggregates: Aggregate[] = [];
  const cueTokens = new Set<number>();
  const cues: { tokens: [number, number]; text: string }[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const cue = cueAt(tokens, i);
    if (!cue) continue;
    for (let k = i; k < i + cue.length; k++) cueTokens.add(k);
    const chunk = chunkWithOwner(tokens, skipOf(tokens, i + cue.length));
    // COUNT of a table's rows is COUNT(*); the counted noun stays visible as the argument text.
    const argument = chunk ? phraseOf(chunk) : '*';
    aggregates.push({ function: cue.fn, argument, cue: cue.text });
    cues.push({ tokens: [i, i + cue.length - 1], text: cue.text });
    i += cue.length - 1;
  }
  // "the average, minimum and maximum age": listed aggregates share the argument named last.
  for (let k = aggregates.length - 2; k >= 0; k--) {
    if (aggregates[k].argument === '*' && aggregates[k].function !== 'COUNT') aggregates[k].argument = aggregates[k + 1].argument;
  }
  return { aggregates, cueTokens, cues };
}

function cueAt(tokens: QuestionToken[], i: number): { fn: AggregateFunction; length: number; text: string } | null {
  const w = tokens[i].lower;
  const next = tokens[i + 1]?.lower;
  if (w === 'how' && next === 'many') return { fn: 'COUNT', length: 2, text: 'how many' };
  // "the average number of employees" aggregates a stored number; "phone number of" names a column.
  // A noun before it ("flight number of", "room number of") makes "number" part of a column's name.
  const compound = tokens[i - 1]?.pos === 'NOUN' && !tokens[i - 1].sentenceStart;
  if (w === 'number' && next === 'of' && !compound && !NUMBER_OF_OWNERS.has(tokens[i - 1]?.lower ?? '')) return { fn: 'COUNT', length: 2, text: 'number of' };
  const fn = SINGLE_WORD_CUES[w];
  if (!fn) return null;
  // "the total" / "average" as nouns or adjectives; "count" only as the verb or "the count of".
  if ((w === 'count' || w === 'counts') && tokens[i].pos !== 'VERB' && !(tokens[i].sentenceStart || next === 'of' || next === 'the')) return null;
  // "total number of" is one COUNT, not SUM(COUNT(...)).
  if (fn === 'SUM' && w === 'total' && next === 'number' && tokens[i + 2]?.lower === 'of') return { fn: 'COUNT', length: 3, text: 'total number of' };
  return { fn, length: 1, text: w };
}

/** "the number of the singers" → "singers"; "average of age" → "age". */
function skipOf(tokens: QuestionToken[], i: number): number {
  let j = i;
  while (j < tokens.length && (tokens[j].lower === 'of' || tokens[j].pos === 'DET')) j++;
  return j;
}
