/**
 * The head–dependent structure of a question: every chunk (a noun phrase, a literal, an aggregate
 * or superlative cue) is a node attached to the chunk it depends on, with the words that link
 * them. "names of the pilots from Canada" is names ← pilots (of) ← 'Canada' (from). It is
 * what lets the skeleton say which thing a value restricts when the question names no column.
 */

export type NodeRole =
  /** The asking words ("What are", "List", "How many"): the root. */
  | 'question'
  /** A phrase the answer must show (SELECT). */
  | 'projection'
  /** An aggregate cue ("how many", "average"); its argument hangs under it. */
  | 'aggregate'
  /** A noun phrase naming a column a condition reads ("age" in "whose age is over 30"). */
  | 'column'
  /** A literal compared in WHERE / HAVING. */
  | 'value'
  /** A date or year compared in WHERE. */
  | 'temporal'
  /** A superlative or sort cue (ORDER BY), attached to what it orders. */
  | 'order'
  /** The count of a top-N or superlative (LIMIT), attached to its superlative. */
  | 'limit'
  /** A phrase after "each" / "per" (GROUP BY). */
  | 'group'
  /** A lowercase word that may be a stored value of its head ("female students"); a guess. */
  | 'possible_value'
  /** Any other noun phrase: the things the question talks about (tables, owners). */
  | 'entity';

export interface TreeNode {
  id: number;
  role: NodeRole;
  /** The words as the question writes them. */
  text: string;
  /** Token positions [first, last]. */
  tokens: [number, number];
  /** The id of the node this one depends on; null for the root only. */
  head: number | null;
  /** How it depends on its head: the linking words ("of", "from", "whose"), or the operator of a value. */
  relation: string;
}
