import type { ForeignKeyEdge } from '../exploration/join-paths';
import { nameTokens } from '../preparation/name-tokens';
import type { ColumnProfile } from '../profiling/column-profile';
import { normalizeValue, type ValueLexicon } from './lexical-value-index';

export interface InferJoinOptions {
  /** Words too generic to tie a column to a table by themselves. */
  genericWords: ReadonlySet<string>;
  /** Fewest distinct values the referencing column needs: two values prove little. */
  minDistinct: number;
}

export const DEFAULT_INFER_JOIN_OPTIONS: InferJoinOptions = {
  genericWords: new Set(['id', 'code', 'number', 'name', 'key', 'type']),
  minDistinct: 3,
};

/**
 * Join keys the schema does not declare: a column whose every value is a value of another
 * table's key (unique, identifier-like) column of the same kind (text or number), and whose
 * name shares a word with that key or its table — `flights.Airline` (integers) and the key
 * `airlines.uid`. Value inclusion alone joins any small integer column to any id; the shared
 * name word is what says the column means the other table. Read from what preparation stored
 * (profiles and the value lexicon, whose value sets are bounded per column), so it costs
 * nothing per question. Columns already in a declared foreign key, and table pairs a declared
 * key already joins, are left alone.
 */
export function inferJoinKeys(
  profiles: ColumnProfile[],
  lexicon: ValueLexicon,
  declared: ForeignKeyEdge[],
  options: InferJoinOptions = DEFAULT_INFER_JOIN_OPTIONS,
): ForeignKeyEdge[] {
  const lower = (s: string) => s.toLowerCase();
  const id = (table: string, column: string) => `${lower(table)}.${lower(column)}`;
  const values = new Map<string, { textual: boolean; set: Set<string> }>();
  for (const c of lexicon.columns) values.set(id(c.table, c.column), { textual: c.textual, set: new Set(c.values.map(normalizeValue)) });
  const linked = new Set(declared.flatMap((fk) => [`${lower(fk.fromTable)}|${lower(fk.toTable)}`, `${lower(fk.toTable)}|${lower(fk.fromTable)}`]));
  const words = (name: string) => new Set(nameTokens(name).filter((w) => !options.genericWords.has(w)));

  const keys = profiles.filter((p) => p.nonNullCount > 0 && p.uniqueness === 1 && (p.primaryKey || p.identifier) && values.has(id(p.table, p.column)));
  const edges: ForeignKeyEdge[] = [];
  for (const from of profiles) {
    if (from.references) continue; // already a declared foreign key
    const fromValues = values.get(id(from.table, from.column));
    if (!fromValues || fromValues.set.size < options.minDistinct) continue;
    const fromWords = words(from.column);
    if (fromWords.size === 0) continue;
    for (const to of keys) {
      if (lower(to.table) === lower(from.table) || linked.has(`${lower(from.table)}|${lower(to.table)}`)) continue;
      const toValues = values.get(id(to.table, to.column))!;
      if (toValues.textual !== fromValues.textual) continue;
      const toWords = new Set([...words(to.table), ...words(to.column)]);
      if (![...fromWords].some((w) => toWords.has(w))) continue;
      if (![...fromValues.set].every((v) => toValues.set.has(v))) continue;
      edges.push({ fromTable: from.table, fromColumns: [from.column], toTable: to.table, toColumns: [to.column] });
    }
  }
  return edges;
}
