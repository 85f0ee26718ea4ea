import { chunkWithOwner, phraseOf } from './noun-chunks';
import type { Aggregate, AggregateFunction, Projection } from './question-tree';
import type { QuestionToken } from './question-tokens';
import { isSuperlative } from './superlatives';

/**
 * What the question asks for: the noun chunks after its question word or imperative ("What are
 * the name and age of ...", "List the titles ...", "Which country ...", "How many singers ...").
 * Chunks joined by "and" or commas are separate projections; an "of" phrase stays with its head
 * ("name of the singer"); an aggregate cue in front makes it an aggregate projection.
 */

const ASKING_WORDS = new Set([
  'what',
  'which',
  'who',
  'whom',
  'whose',
  'when',
  'where',
  'how',
  'list',
  'show',
  'give',
  'find',
  'return',
  'tell',
  'name',
  'display',
  'provide',
  'identify',
  'state',
  'calculate',
  'count',
  'compute',
  'determine',
  'indicate',
  'describe',
  'mention',
  'get',
  'select',
  'report',
  'output',
  'enumerate',
  'specify',
  'locate',
]);
/** Skipped between the asking word and the first projection. */
const LEAD_FILLERS = new Set([
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

/** The question word or imperative that opens the request (the tree's root), or -1. */
export function askingWordAt(tokens: QuestionToken[]): number {
  return tokens.findIndex(
    (t) => ASKING_WORDS.has(t.lower) && (t.sentenceStart || t.index === 0 || tokens[t.index - 1].text === ',' || tokens[t.index - 1].lower === 'please'),
  );
}

export function findProjections(tokens: QuestionToken[], aggregates: Aggregate[], aggregateCues: Set<number>, isLiteral: (i: number) => boolean): Projection[] {
  const start = askingWordAt(tokens);
  if (start < 0) return [];
  if (tokens[start].lower === 'who' || tokens[start].lower === 'whom') return [{ phrase: 'who', aggregate: null, tokens: [start, start] }];
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
    // "the most common bond type": the superlative is the ordering's; the projection is the noun.
    // "the youngest 3 players", "the 3 youngest players": the count beside a superlative is its LIMIT.
    const superlative =
      (isSuperlative(t) && tokens[i + 1]?.pos !== 'ADP') ||
      (t.pos === 'NUM' && ((isSuperlative(tokens[i - 1] ?? t) && i > 0) || (tokens[i + 1] !== undefined && isSuperlative(tokens[i + 1]))));
    if (LEAD_FILLERS.has(t.lower) || t.text === ',' || (t.lower === 'and' && pending.length > 0) || superlative) {
      i++;
      continue;
    }
    // "What are Alexis Blin's sprint speed ...": the owner's name is a filter, the projection follows it.
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
    if (tokens[i]?.lower === 'and' || tokens[i]?.text === ',') {
      while (tokens[i]?.lower === 'and' || tokens[i]?.text === ',') i++;
      continue;
    }
    break;
  }
  for (const fn of pending) projections.push({ phrase: '*', aggregate: fn, tokens: null });
  return projections;
}
