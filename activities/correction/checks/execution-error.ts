import type { Finding } from '../../../core/correction/finding';
import type { CheckInput } from './check-input';

/** The database refused or stopped the query: the strongest signal, and the one DecoSearch's refiner acts on. */
export function executionError(input: CheckInput): Finding | null {
  if (input.execution.ok) return null;
  const { kind, message } = input.execution;
  return { check: kind === 'timeout' ? 'timeout' : 'execution-error', severity: 'error', message };
}
