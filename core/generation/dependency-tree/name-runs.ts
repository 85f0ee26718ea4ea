import { phraseOf } from './noun-chunks';
import type { QuestionLiteral } from './question-tree';
import type { QuestionToken } from './question-tokens';

/**
 * Titles and long names reach the literal passes in pieces: "Peugeot" + "505s" + "Turbo Diesel",
 * "1937" + "Lincoln Berline", "Intro" + "to" + "BlockChain", "Born" + "on the" + "Fourth of July".
 * A stored value is the whole title, and a piece of it in a filter matches nothing, so neighbouring
 * pieces are joined back into one name when nothing but a title's small words stands between them.
 */

/** Small words a title keeps inside it; "in", "from", "or" and "and" more often separate two values. */
const TITLE_LINKS = new Set(['of', 'the', 'to', 'on', 'for', 'at', '-', '–', '&', ':']);
const NAME_KINDS = new Set<QuestionLiteral['kind']>(['proper_noun', 'code']);

export function joinNameRuns(tokens: QuestionToken[], literals: QuestionLiteral[]): QuestionLiteral[] {
  const joined: QuestionLiteral[] = [];
  for (const literal of literals) {
    const previous = joined[joined.length - 1];
    if (previous && continuesName(tokens, previous, literal)) {
      const span = tokens.slice(previous.tokens[0], literal.tokens[1] + 1);
      const text = phraseOf(span);
      joined[joined.length - 1] = { text, value: text, kind: 'proper_noun', tokens: [previous.tokens[0], literal.tokens[1]] };
    } else joined.push(literal);
  }
  return joined;
}

function continuesName(tokens: QuestionToken[], left: QuestionLiteral, right: QuestionLiteral): boolean {
  const gap = tokens.slice(left.tokens[1] + 1, right.tokens[0]);
  if (gap.length > 2 || !gap.every((t) => TITLE_LINKS.has(t.lower))) return false;
  // A name then a number or code ("LaLiga 2", "Peugeot 505s"); a year then a name ("1937 Lincoln Berline").
  if (gap.length === 0)
    return (NAME_KINDS.has(left.kind) && (NAME_KINDS.has(right.kind) || right.kind === 'number')) || (left.kind === 'year' && right.kind === 'proper_noun');
  // Across small words only capitalised pieces join ("Intro to BlockChain"); "from Boston to Denver" is a route of two values.
  const fromTo = gap[0].lower === 'to' && tokens[left.tokens[0] - 1]?.lower === 'from';
  return left.kind === 'proper_noun' && right.kind === 'proper_noun' && /^\p{Lu}/u.test(tokens[right.tokens[0]].text) && !fromTo;
}
