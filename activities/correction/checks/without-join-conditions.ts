import type { Dialect } from '../../../core/database/schema-types';
import { tokensOrNull } from '../../database/sql-tokens';
import { ENDS_FROM, JOIN_WORDS, SET_OPERATIONS } from './without-joins';

/** Words that end a join's ON condition at its own depth: the next join, the next clause, the next SELECT. */
const ENDS_CONDITION = new Set([...JOIN_WORDS, ...ENDS_FROM, ...SET_OPERATIONS]);

/**
 * The query with every `ON condition` cut out (`FROM a JOIN b WHERE …`, still a query), so what is
 * read *beside* the joins can be told from what the joins only match on. Null when the text cannot
 * be scanned.
 */
export function withoutJoinConditions(sql: string, dialect: Dialect): string | null {
  const tokens = tokensOrNull(sql, dialect);
  if (!tokens) return null;
  const cuts: [number, number][] = [];
  let depth = 0;
  let cut: { from: number; depth: number } | null = null;
  const endCut = (at: number) => {
    cuts.push([cut!.from, at]);
    cut = null;
  };
  for (const token of tokens) {
    const open = token.kind === 'symbol' && token.text === '(';
    const close = token.kind === 'symbol' && token.text === ')';
    if (cut && ((close && depth === cut.depth) || (token.kind === 'word' && depth === cut.depth && ENDS_CONDITION.has(token.upper)))) endCut(token.start);
    if (open) depth++;
    if (close) depth--;
    if (!cut && token.kind === 'word' && token.upper === 'ON') cut = { from: token.start, depth };
  }
  if (cut) endCut(sql.length);
  let out = '';
  let at = 0;
  for (const [from, to] of cuts) {
    out += `${sql.slice(at, from)} `;
    at = to;
  }
  return out + sql.slice(at);
}
