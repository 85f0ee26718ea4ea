import type { Finding } from '../../../core/correction/finding';
import type { CheckInput } from './check-input';

/** `id`, `singer_id`, `STU_ID`, `StuID`, `PetId`; not `paid` or `valid`. */
const isId = (column: string) => /(^|_)id$/i.test(column) || /[a-z]I[dD]$/.test(column);
const ASKS_FOR_IDS = /\b(ids?|identifiers?|identification)\b/i;
const DESCRIBES = /name|title/i;

/**
 * The query returns an id where the question asks for no ids, while the tables it reads have
 * names. A 1.5B reviser told "no such column T1.Name" often returns `T1.person_id` instead of
 * taking Name from the other table: the SQL runs and answers a different question.
 */
export function idForName(input: CheckInput): Finding | null {
  if (!input.execution.ok || !input.analysis.ok || ASKS_FOR_IDS.test(input.question)) return null;
  // `SELECT *` returns the ids with everything else, as asked ("all the information about …").
  if (input.analysis.columns.some((c) => c.column === '*')) return null;
  // A question may name the column itself ("Which member_id …").
  const words = new Set(input.question.toLowerCase().split(/[^a-z0-9_]+/));
  const ids = input.execution.columns.filter((c) => isId(c) && !words.has(c.toLowerCase()));
  if (!ids.length) return null;
  const read = new Set(input.analysis.tables.map((t) => t.toLowerCase()));
  const named = input.schema.tables.some((t) => read.has(t.name.toLowerCase()) && t.columns.some((c) => DESCRIBES.test(c.name) && !isId(c.name)));
  if (!named) return null;
  return {
    check: 'id-for-name',
    severity: 'warning',
    message: `the query returns ${ids.join(', ')}, an id, but the question asks for no ids; if it asks for names or other details, return those columns (from the table that has them) instead`,
  };
}
