/**
 * Retrieved examples without the question being answered: an example whose question reads the
 * same (case and spacing aside) is that question, or a copy of it (Spider train repeats some
 * questions, under the same database or others), and its SQL or plan is the answer. Showing it
 * would let a run on training questions (rule mining, knowledge building, a benchmark of a training
 * set) copy its own gold answer.
 */
export function withoutQuestion<T extends { question: string }>(question: string, examples: T[]): T[] {
  const asked = sameQuestionKey(question);
  return examples.filter((e) => sameQuestionKey(e.question) !== asked);
}

/** What makes two question texts the same question here. */
export function sameQuestionKey(question: string): string {
  return question.trim().replace(/\s+/g, ' ').toLowerCase();
}
