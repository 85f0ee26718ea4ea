import { chunkStartingAt, phraseOf } from './noun-chunks';
import type { Aggregate, AggregateFunction, Projection } from './question-tree';
import type { QuestionToken } from './question-tokens';

/**
 * What the question asks for: the noun chunks after its question word or imperative ("What are
 * the name and age of ...", "List the titles ...", "Which country ...", "How many singers ...").
 * Chunks joined by "and" or commas are separate projections; an "of" phrase stays with its head
 * ("name of the singer"); an aggregate cue in front makes it an aggregate projection.
 */

const ASKING_WORDS = new Set([
  'what', 'which', 'who', 'whom', 'whose', 'when', 'where', 'how',
  'list', 'show', 'give', 'find', 'return', 'tell', 'name', 'display', 'provide', 'identify', 'state', 'calculate', 'count', 'compute', 'determine', 'indicate', 'describe', 'mention', 'get', 'select', 'report', 'output', 'enumerate', 'specify', 'locate',
]);
/** Skipped between the asking word and the first projection. */
const LEAD_FILLERS = new Set(['is', 'are', 'was', 'were', 'me', 'us', 'all', 'the', 'a', 'an', 'out', 'of', 'do', 'does', 'did', 'please', 'those', 'these', 'both', 'each', 'every', 'its', 'their', 'his', 'her', 'down', 'up', 'also', 'any']);

export function findProjections(tokens: QuestionToken[], aggregates: Aggregate[], aggregateCues: Set<number>): Projection[] {
  const start = tokens.findIndex((t) => ASKING_WORDS.has(t.lower) && (t.sentenceStart || t.index === 0 || tokens[t.index - 1].text === ','  || tokens[t.index - 1].lower === 'please'));
  if (start < 0) return [];
  if (tokens[start].lower === 'who' || tokens[start].lower === 'whom') return [{ phrase: 'who', aggregate: null }];
  const projections: Projection[] = [];
  let i = start + 1;
  let pending: AggregateFunction | null = null;
  while (i < tokens.length) {
    const t = tokens[i];
    if (aggregateCues.has(i)) {
      pending = aggregates.find((a) => a.cue.split(' ').includes(t.lower))?.function ?? pending;
      i++;
      continue;
    }
    if (LEAD_FILLERS.has(t.lower) || t.text === ',') {
      i++;
      continue;
    }
    const chunk = chunkStartingAt(tokens, i);
    if (!chunk || chunk[0].index > i + 1) break;
    let end = chunk[chunk.length - 1].index;
    let phrase = phraseOf(chunk);
    // Keep "name of the singer" together when nothing else is listed, since "of" names the owner.
    if (tokens[end + 1]?.lower === 'of') {
      const owner = chunkStartingAt(tokens, end + 2);
      if (owner) {
        phrase = `${phrase} of ${phraseOf(owner)}`;
        end = owner[owner.length - 1].index;
      }
    }
    projections.push({ phrase, aggregate: pending });
    pending = null;
    i = end + 1;
    if (tokens[i]?.lower === 'and' || tokens[i]?.text === ',') {
      i++;
      continue;
    }
    break;
  }
  if (projections.length === 0 && pending) projections.push({ phrase: '*', aggregate: pending });
  return projections;
}
