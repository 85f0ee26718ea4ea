/**
 * Retrieved examples without the question being answered: an example whose question reads the
 * same (case and spacing aside) is that question, or a copy of it (Spider train repeats some
 * questions, under the same database or others), and its SQL or plan is the answer. Showing it
 * would let a run on training questions (rule mining, knowledge building, a benchmark of a training
 * set) copy its own gold answer.
 *
 * A training question also has paraphrases: in Spider train, 6,001 of 7,000 questions have another
 * question on the same database with the same gold SQL, worded differently. A run over training
 * questions therefore withholds every example of the question's own database (`withheldDatabase`,
 * from the run's `withholdExamplesOf`); no text filter can tell a paraphrase.
 */
export function withoutQuestion<T extends { question: string; database?: string }>(question: string, examples: T[], withheldDatabase?: string): T[] {
  const asked = sameQuestionKey(question);
  const withheld = withheldDatabase?.toLowerCase();
  return examples.filter((e) => sameQuestionKey(e.question) !== asked && (withheld === undefined || e.database?.toLowerCase() !== withheld));
}

/** What makes two question texts the same question here. */
export function sameQuestionKey(question: string): string {
  return question.trim().replace(/\s+/g, ' ').toLowerCase();
}
