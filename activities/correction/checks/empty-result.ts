import type { Finding } from '../../../core/correction/finding';
import type { CheckInput } from './check-input';

/** No rows: most questions have an answer, so an empty result usually means a wrong filter value or join. */
export function emptyResult(input: CheckInput): Finding | null {
  if (!input.execution.ok || input.execution.rows.length > 0) return null;
  return { check: 'empty-result', severity: 'warning', message: 'the query returns no rows; check filter values (spelling, case, format) and join conditions' };
}
