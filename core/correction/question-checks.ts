/**
 * The names of the checks that hold a query against the question's words (`correction.questionChecks`,
 * activities/correction/checks): each reports its findings under its name. Here, in core, because
 * selection (a workflow) tells their warnings apart from the papers' own findings.
 */
export const QUESTION_CHECK_NAMES = ['unused-join', 'id-for-name', 'borrowed-column'] as const;

export type QuestionCheckName = (typeof QUESTION_CHECK_NAMES)[number];

export function isQuestionCheck(check: string): check is QuestionCheckName {
  return (QUESTION_CHECK_NAMES as readonly string[]).includes(check);
}
