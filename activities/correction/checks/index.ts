import type { Finding } from '../../../core/correction/finding';
import { QUESTION_CHECK_NAMES, type QuestionCheckName } from '../../../core/correction/question-checks';
import { allNullColumn } from './all-null-column';
import { borrowedColumn } from './borrowed-column';
import type { CheckInput } from './check-input';
import { columnOfOtherTable } from './column-of-other-table';
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
  columnOfOtherTable,
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
export const QUESTION_CHECKS = { 'unused-join': unusedJoin, 'id-for-name': idForName, 'borrowed-column': borrowedColumn } satisfies Record<
  QuestionCheckName,
  (input: CheckInput) => Finding | null
>;
/** The `check` names of QUESTION_CHECKS' findings (each check reports under its key). */
export { QUESTION_CHECK_NAMES };

export function runChecks(input: CheckInput, options: { questionChecks?: boolean } = {}): Finding[] {
  const checks = options.questionChecks ? [...CHECKS, ...Object.values(QUESTION_CHECKS)] : CHECKS;
  return checks.map((check) => check(input)).filter((f): f is Finding => f !== null);
}
