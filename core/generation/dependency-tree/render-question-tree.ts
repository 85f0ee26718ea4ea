import { SHARE_CUES } from './aggregates';
import type { Filter, QuestionLiteral, QuestionTree } from './question-tree';

/**
 * The tree as an SQL skeleton for the generation prompt, e.g.
 *   SELECT COUNT(<singers>) WHERE <country> = 'France' ORDER BY <age> DESC LIMIT 1
 * Angle brackets hold the question's own words for a column the model must choose; `<? of
 * singers>` means the question names no column, only the chunk the value depends on. Literals
 * are written as SQL literals so the model can copy them. There is no FROM: the question alone
 * says nothing reliable about tables, so choosing them is left to the model and the schema.
 * Words only guessed to be values follow on a comment line, apart from the conditions.
 */
export function renderQuestionTree(tree: QuestionTree): string {
  const parts: string[] = [];
  const share = tree.aggregates.some((a) => SHARE_CUES.has(a.cue));
  const select = tree.projections.map((p) => {
    if (share && p.aggregate === 'COUNT') return `100.0 * COUNT(CASE WHEN ? THEN 1 END) / COUNT(${slot(p.phrase)})`;
    return p.aggregate ? `${p.aggregate}(${slot(p.phrase)})` : slot(p.phrase);
  });
  // Aggregates that only order or filter (HAVING) are rendered there, not selected.
  const elsewhere = (a: { function: string; argument: string }): boolean =>
    tree.orderBy.some((o) => o.aggregate === a.function && o.by === a.argument) ||
    [...tree.filters].some((f) => f.aggregate === a.function && f.column === a.argument);
  const extraAggregates = tree.aggregates.filter((a) => !tree.projections.some((p) => p.aggregate === a.function)).filter((a) => !elsewhere(a));
  for (const a of extraAggregates) select.push(`${a.function}(${a.argument === '*' ? '*' : slot(a.argument)})`);
  parts.push(`SELECT ${tree.distinct ? 'DISTINCT ' : ''}${select.length > 0 ? select.join(', ') : '?'}`);
  const conditions = [...tree.filters, ...tree.temporal].sort((a, b) => a.values[0].tokens[0] - b.values[0].tokens[0]);
  const where = conditions.filter((f) => f.aggregate === null);
  const having = conditions.filter((f) => f.aggregate !== null);
  const condition = (filter: Filter): string => renderCondition(filter, implicitColumn(tree, filter));
  if (where.length > 0) parts.push(`WHERE ${where.map(condition).join(' AND ')}`);
  if (tree.groupBy.length > 0 || having.length > 0) parts.push(`GROUP BY ${tree.groupBy.length > 0 ? tree.groupBy.map(slot).join(', ') : '?'}`);
  if (having.length > 0) parts.push(`HAVING ${having.map(condition).join(' AND ')}`);
  if (tree.orderBy.length > 0) {
    parts.push(`ORDER BY ${tree.orderBy.map((o) => `${o.aggregate ? `${o.aggregate}(${slot(o.by)})` : slot(o.by || '?')} ${o.direction}`).join(', ')}`);
  }
  if (tree.limit !== null) parts.push(`LIMIT ${tree.limit}`);
  const guesses = tree.possibleValues.map((f) => {
    const [value] = f.values;
    const spellings = value.text === value.value ? quote(value.text) : `${quote(String(value.value))} or ${quote(value.text)}`;
    return `${spellings} (${slot(f.column ?? implicitColumn(tree, f))})`;
  });
  return guesses.length > 0 ? `${parts.join(' ')}\n-- maybe stored values, or just description: ${guesses.join(', ')}` : parts.join(' ');
}

/** For a value with no column phrase, the chunk it depends on in the tree ("<? of singers>"). */
function implicitColumn(tree: QuestionTree, filter: Filter): string {
  const [first, last] = filter.values[0].tokens;
  const node = tree.nodes.find((n) => n.tokens[0] === first && n.tokens[1] === last && n.role !== 'limit');
  const head = node && node.head !== null ? tree.nodes[node.head] : undefined;
  return head && head.role !== 'question' ? `? of ${head.text}` : '?';
}

function slot(phrase: string): string {
  return phrase === '*' ? '*' : `<${phrase}>`;
}

function renderCondition(filter: Filter, implicit: string): string {
  const named = slot(filter.column ?? implicit);
  const column = filter.aggregate ? `${filter.aggregate}(${named})` : named;
  const [first, second] = filter.values;
  switch (filter.operator) {
    case 'BETWEEN':
      return `${column} ${filter.negated ? 'NOT BETWEEN' : 'BETWEEN'} ${sqlLiteral(first)} AND ${sqlLiteral(second)}`;
    case 'IN':
    case 'NOT IN':
      return `${column} ${filter.operator} (${filter.values.map(sqlLiteral).join(', ')})`;
    case 'LIKE':
    case 'NOT LIKE': {
      const text = String(first.value);
      const pattern = filter.match === 'starts' ? `${text}%` : filter.match === 'ends' ? `%${text}` : `%${text}%`;
      return `${column} ${filter.operator} ${quote(pattern)}`;
    }
    default:
      return `${column} ${filter.operator} ${sqlLiteral(first)}`;
  }
}

function sqlLiteral(literal: QuestionLiteral): string {
  return typeof literal.value === 'number' ? String(literal.value) : quote(literal.value);
}

function quote(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}
