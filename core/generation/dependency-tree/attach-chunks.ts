import { chunkStartingAt, phraseOf } from './noun-chunks';
import type { Filter, Ordering, Projection, QuestionLiteral } from './question-tree';
import type { QuestionToken } from './question-tokens';
import type { NodeRole, TreeNode } from './tree-nodes';

/**
 * Builds the head–dependent links between the question's chunks. wink-nlp gives no arcs, so
 * heads follow English's order: a modifier or complement follows its head ("names of the
 * pilots", "pilots from Canada", "pilots whose age is ..."), so a chunk depends on the nearest
 * noun chunk before it in its sentence; a value depends on the column phrase the filter found for
 * it, or on that nearest chunk when the column is implicit; a superlative depends on the noun it
 * orders, a LIMIT count on its superlative, an aggregate's argument on the aggregate.
 */

export interface AttachInput {
  tokens: QuestionToken[];
  /** First token of the asking words ("What", "List", "How"), or -1. */
  askAt: number;
  projections: Projection[];
  /** Aggregate cue spans with their function, in question order. */
  aggregateCues: { tokens: [number, number]; text: string }[];
  conditions: Filter[];
  possibleValues: Filter[];
  superlative: { at: number; ordering: Ordering; limitLiteral: QuestionLiteral | null } | null;
  groupStarts: number[];
}

/** "sorted by", "in order of", "ranked by": the chunk after them is an ORDER BY key. */
const SORTING = /\b(sort|sorted|order|ordered|rank|ranked|arrange|arranged) (by|of)$/;

const DETERMINERS = new Set(['the', 'a', 'an', 'all', 'any', 'each', 'every', 'its', 'their', 'his', 'her', 'those', 'these', 'this', 'that']);

export function attachChunks(input: AttachInput): TreeNode[] {
  const { tokens } = input;
  const nodes: TreeNode[] = [];
  const add = (role: NodeRole, first: number, last: number, head: number | null, relation: string): TreeNode => {
    const node: TreeNode = { id: nodes.length, role, text: phraseOf(tokens.slice(first, last + 1)), tokens: [first, last], head, relation };
    nodes.push(node);
    return node;
  };
  const root = add('question', Math.max(0, input.askAt), Math.max(0, input.askAt), null, '');
  // A question with no asking word ("Among ..., which ...") still needs a root to hang chunks on.
  if (input.askAt < 0) root.text = '';

  const blocked = new Set<number>();
  const valueTokens = new Set<number>();
  const values = [...input.conditions, ...input.possibleValues].flatMap((f) => f.values);
  for (const v of values) for (let i = v.tokens[0]; i <= v.tokens[1]; i++) valueTokens.add(i);
  for (const i of valueTokens) blocked.add(i);
  const limit = input.superlative?.limitLiteral?.tokens;
  if (limit) for (let i = limit[0]; i <= limit[1]; i++) blocked.add(i);
  for (const cue of input.aggregateCues) for (let i = cue.tokens[0]; i <= cue.tokens[1]; i++) blocked.add(i);
  if (input.superlative) blocked.add(input.superlative.at);
  const chunks = nounChunks(tokens, (i) => blocked.has(i) || i === input.askAt);

  // Chunks first, each attached to the nearest chunk before it in its clause, or to the root.
  // A comma or a new sentence ends the clause: "..., sorted by age" hangs "age" from the root.
  const chunkNodes: TreeNode[] = [];
  for (const [first, last] of chunks) {
    const previous = chunkNodes[chunkNodes.length - 1];
    const gap = tokens.slice(previous ? previous.tokens[1] + 1 : 0, first + 1);
    const sameClause = previous && !gap.some((t) => t.sentenceStart || t.text === ',' || t.text === ';');
    let from = sameClause ? previous.tokens[1] : Math.max(input.askAt, lastWhere(gap, (t) => t.sentenceStart || t.text === ',' || t.text === ';') - 1);
    // The words after the last value in between say how the chunks relate ("from France whose" → "whose").
    from = Math.max(
      from,
      lastWhere(gap, (t) => valueTokens.has(t.index)),
    );
    const chunk = add('entity', first, last, sameClause ? previous.id : root.id, linkWords(tokens, from, first, blocked));
    if (SORTING.test(chunk.relation)) chunk.role = 'order';
    chunkNodes.push(chunk);
  }
  const chunkAt = (i: number): TreeNode | undefined => chunkNodes.find((c) => c.tokens[0] <= i && i <= c.tokens[1]);
  const chunkStartingNear = (i: number): TreeNode | undefined => chunkNodes.find((c) => c.tokens[0] >= i && c.tokens[0] <= i + 3);

  for (const cue of input.aggregateCues) {
    const node = add('aggregate', cue.tokens[0], cue.tokens[1], root.id, cue.text);
    const argument = chunkStartingNear(cue.tokens[1] + 1);
    if (argument && argument.head !== null && nodes[argument.head].role !== 'aggregate') reattach(argument, node.id, 'of');
  }
  for (const projection of input.projections) {
    const chunk = projection.tokens ? chunkAt(projection.tokens[0]) : undefined;
    if (!chunk) continue;
    chunk.role = 'projection';
    if (chunk.head === null || nodes[chunk.head].role !== 'aggregate') reattach(chunk, root.id, 'select');
  }
  for (const start of input.groupStarts) {
    const chunk = chunkStartingNear(start);
    if (!chunk) continue;
    chunk.role = 'group';
    const aggregate = nodes.find((n) => n.role === 'aggregate');
    reattach(chunk, (aggregate ?? root).id, linkWords(tokens, start - 3, start, blocked));
  }
  for (const filter of [...input.conditions, ...input.possibleValues]) attachFilter(filter);
  if (input.superlative) {
    const { at, ordering, limitLiteral } = input.superlative;
    const ordered = chunkStartingNear(at + 1) ?? [...chunkNodes].reverse().find((c) => c.tokens[1] < at);
    const node = add('order', at, at, (ordered ?? root).id, ordering.direction);
    if (limitLiteral) add('limit', limitLiteral.tokens[0], limitLiteral.tokens[1], node.id, 'LIMIT');
  }
  return nodes.sort((a, b) => a.id - b.id);

  function attachFilter(filter: Filter): void {
    const guess = input.possibleValues.includes(filter);
    for (const value of filter.values) {
      const [first, last] = value.tokens;
      const role: NodeRole = guess ? 'possible_value' : value.kind === 'date' || value.kind === 'year' ? 'temporal' : 'value';
      // The column phrase the filter found, nearest to the value; the noun right after a modifier; or the nearest chunk before.
      const named = filter.column
        ? [...chunkNodes].filter((c) => c.text === filter.column).sort((a, b) => Math.abs(a.tokens[0] - first) - Math.abs(b.tokens[0] - first))[0]
        : undefined;
      if (named && named.role === 'entity' && !guess) named.role = 'column';
      const before = [...chunkNodes].reverse().find((c) => c.tokens[1] < first);
      const head = named ?? (guess ? chunkStartingNear(last + 1) : undefined) ?? before ?? root;
      add(role, first, last, head.id, filter.aggregate ? `${filter.aggregate} ${filter.operator}` : filter.operator);
    }
  }

  function reattach(node: TreeNode, head: number, relation: string): void {
    if (node.id === head) return;
    node.head = head;
    node.relation = relation;
  }
}

/** Noun chunk spans, left to right, never crossing a blocked token (literals, cues). */
function nounChunks(tokens: QuestionToken[], isBlocked: (i: number) => boolean): [number, number][] {
  const spans: [number, number][] = [];
  for (let i = 0; i < tokens.length; i++) {
    if (isBlocked(i)) continue;
    const chunk = chunkStartingAt(tokens, i, isBlocked);
    // A chunk of adjectives only ("older" in "older than 56") names no thing to hang values on.
    if (!chunk || !['NOUN', 'PROPN'].includes(chunk[chunk.length - 1].pos)) continue;
    spans.push([chunk[0].index, chunk[chunk.length - 1].index]);
    i = chunk[chunk.length - 1].index;
  }
  return spans;
}

/** The words between two chunks that say how they relate ("of", "from", "whose age is"), articles and cues left out. */
function linkWords(tokens: QuestionToken[], after: number, before: number, blocked: Set<number>): string {
  return tokens
    .slice(Math.max(0, after + 1), before)
    .filter((t) => !DETERMINERS.has(t.lower) && t.pos !== 'PUNCT' && !blocked.has(t.index))
    .map((t) => t.lower)
    .join(' ');
}

/** Index of the last token in `span` that passes `test`, or -1. */
function lastWhere(span: QuestionToken[], test: (t: QuestionToken) => boolean): number {
  for (let k = span.length - 1; k >= 0; k--) if (test(span[k])) return span[k].index;
  return -1;
}
