import type { Finding } from '../../../core/correction/finding';
import { allNullColumn } from './all-null-column';
import type { CheckInput } from './check-input';
import { countForList } from './count-for-list';
import { doubleQuotedString } from './double-quoted-string';
import { emptyResult } from './empty-result';
import { executionError } from './execution-error';
import { idForName } from './id-for-name';
import { parseError } from './parse-error';
import { unknownName } from './unknown-name';
import { unusedJoin } from './unused-join';

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

/**
 * Checks that hold the query against the question's words (`correction.questionChecks`): decodex's
 * own, for the mistakes a small model makes most once its SQL runs. Not in the papers.
 */
export const QUESTION_CHECKS: ((input: CheckInput) => Finding | null)[] = [unusedJoin, idForName];
/** The `check` names of QUESTION_CHECKS' findings, in the same order. */
export const QUESTION_CHECK_NAMES = ['unused-join', 'id-for-name'] as const;

export function runChecks(input: CheckInput, options: { questionChecks?: boolean } = {}): Finding[] {
  const checks = options.questionChecks ? [...CHECKS, ...QUESTION_CHECKS] : CHECKS;
  return checks.map((check) => check(input)).filter((f): f is Finding => f !== null);
}
