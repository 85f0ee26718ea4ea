import type { Finding } from '../../../core/correction/finding';
import { allNullColumn } from './all-null-column';
import type { CheckInput } from './check-input';
import { countForList } from './count-for-list';
import { doubleQuotedString } from './double-quoted-string';
import { emptyResult } from './empty-result';
import { executionError } from './execution-error';
import { parseError } from './parse-error';
import { unknownName } from './unknown-name';

/** Every diagnostic check, in report order: a check is a plain-code detector; an LLM fix runs only when one fires. */
export const CHECKS: ((input: CheckInput) => Finding | null)[] = [
  executionError,
  unknownName,
  parseError,
  doubleQuotedString,
  emptyResult,
  allNullColumn,
  countForList,
];

export function runChecks(input: CheckInput): Finding[] {
  return CHECKS.map((check) => check(input)).filter((f): f is Finding => f !== null);
}
