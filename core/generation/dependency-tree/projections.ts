import { chunkWithOwner, phraseOf } from './noun-chunks';
import type { Aggregate, AggregateFunction, Projection } from './question-tree';
import type { QuestionToken } from './question-tokens';
import { askingStarts } from './asking-words';
import { isSuperlative } from './superlatives';

/**
 * What the question asks for: the noun chunks after its question word or imperative ("What are
 * the name and age of ...", "List the titles ...", "Which country ...", "How many pilots ...").
 * Chunks joined by "and" or commas are separate projections; an "of" phrase stays with its head
 * ("name of the pilot"); an aggregate cue in front makes it an aggregate projection.
 */

/** Skipped between the asking word and the first projection. */
const LEAD_FILLERS = new Set([
  "'s",
  'much',
  'different',
  'distinct',
  'unique',
  'is',
  'are',
  'was',
  'were',
  'me',
  'us',
  'all',
  'the',
  'a',
  'an',
  'out',
  'of',
  'do',
  'does',
  'did',
  'please',
  'those',
  'these',
  'both',
  'each',
  'every',
  'its',
  'their',
  'his',
  'her',
  'down',
  'up',
  'also',
  'any',
]);

export function findProjections(tokens: QuestionToken[], aggregates: Aggregate[], aggregateCues: Set<number>, isLiteral: (i: number) => boolean): Projection[] {
  let projections: Projection[] = [];
  askingStarts(tokens).forEach((start, k) => {
    const asked = projectionsAfter(tokens, start, aggregates, aggregateCues, isLiteral);
    // "Which authors ...? Show the first names and last names.": a later request usually says which
    // columns of the first answer to show, so it replaces it, unless it adds to it ("Include ... as well").
    if (k > 0 && asked.length > 0 && !addsToAnswer(tokens, start)) projections = [];
    for (const p of asked) if (!projections.some((q) => q.phrase === p.phrase && q.aggregate === p.aggregate)) projections.push(p);
  });
  return projections;
}

const ADDING_WORDS = new Set(['also', 'include', 'including', 'well', 'too', 'additionally', 'besides', 'along']);

/** The request's sentence adds columns rather than naming the ones to show. */
function addsToAnswer(tokens: QuestionToken[], start: number): boolean {
  for (let i = Math.max(0, start - 1); i < tokens.length && (i <= start || !tokens[i].sentenceStart); i++) if (ADDING_WORDS.has(tokens[i].lower)) return true;
  return false;
}

function projectionsAfter(
  tokens: QuestionToken[],
  start: number,
  aggregates: Aggregate[],
  aggregateCues: Set<number>,
  isLiteral: (i: number) => boolean,
): Projection[] {
  if (['who', 'whom', 'when', 'where'].includes(tokens[start].lower)) return [{ phrase: tokens[start].lower, aggregate: null, tokens: [start, start] }];
  const projections: Projection[] = [];
  let i = start + 1;
  // "the average, minimum and maximum age": every listed aggregate applies to the chunk after them.
  let pending: AggregateFunction[] = [];
  while (i < tokens.length) {
    const t = tokens[i];
    if (aggregateCues.has(i)) {
      const fn = aggregates.find((a) => a.cue.split(' ').includes(t.lower))?.function;
      if (fn && !pending.includes(fn)) pending.push(fn);
      i++;
      continue;
    }
    // "the most common engine type": the superlative is the ordering's; the projection is the noun.
    // "the youngest 3 players", "the 3 youngest players": the count beside a superlative is its LIMIT.
    const superlative =
      (isSuperlative(t) && tokens[i + 1]?.pos !== 'ADP') ||
      (t.pos === 'NUM' && ((isSuperlative(tokens[i - 1] ?? t) && i > 0) || (tokens[i + 1] !== undefined && isSuperlative(tokens[i + 1]))));
    if (LEAD_FILLERS.has(t.lower) || t.text === ',' || (t.lower === 'and' && pending.length > 0) || superlative) {
      i++;
      continue;
    }
    // "What is Mia Holt's top speed ...": the owner's name is a filter, the projection follows it.
    if (isLiteral(i)) {
      let j = i;
      while (isLiteral(j + 1)) j++;
      if (tokens[j + 1]?.text === "'s" || tokens[j + 1]?.text === "'") {
        i = j + 2;
        continue;
      }
    }
    const chunk = chunkWithOwner(tokens, i, isLiteral);
    if (!chunk || chunk[0].index > i + 1) break;
    const end = chunk[chunk.length - 1].index;
    const phrase = phraseOf(chunk);
    const span: [number, number] = [chunk[0].index, end];
    if (pending.length === 0) projections.push({ phrase, aggregate: null, tokens: span });
    for (const fn of pending) projections.push({ phrase, aggregate: fn, tokens: span });
    pending = [];
    i = end + 1;
    const joiner = joinerAt(tokens, i);
    if (joiner > 0) {
      while (joinerAt(tokens, i) > 0) i += joinerAt(tokens, i);
      continue;
    }
    break;
  }
  for (const fn of pending) projections.push({ phrase: '*', aggregate: fn, tokens: null });
  return projections;
}

/** "and", ",", "along with", "as well as", "together with" between two asked-for phrases: how many tokens it spans, or 0. */
function joinerAt(tokens: QuestionToken[], i: number): number {
  const [a, b, c] = [tokens[i]?.lower, tokens[i + 1]?.lower, tokens[i + 2]?.lower];
  if (a === 'and' || a === ',') return 1;
  if ((a === 'along' || a === 'together') && b === 'with') return 2;
  return a === 'as' && b === 'well' && c === 'as' ? 3 : 0;
}
