import type { Finding } from '../../../core/correction/finding';
import type { CheckInput } from './check-input';

/** A returned column that is NULL in every row answers nothing: usually the wrong column or a join that finds no partner. */
export function allNullColumn(input: CheckInput): Finding | null {
  if (!input.execution.ok || input.execution.rows.length === 0) return null;
  const { columns, rows } = input.execution;
  const empty = columns.filter((_, i) => rows.every((r) => r[i] === null));
  if (!empty.length) return null;
  return {
    check: 'all-null-column',
    severity: 'warning',
    message: `column${empty.length > 1 ? 's' : ''} ${empty.join(', ')} ${empty.length > 1 ? 'are' : 'is'} NULL in every row`,
  };
}
