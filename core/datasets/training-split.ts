/**
 * Whether a dataset is a training split by its name (`spider-train`, `bird-train`, a file
 * `my-train.jsonl`): questions from one are answered with their own database's examples withheld
 * (core/knowledge/without-question.ts).
 */
export function isTrainingSplit(dataset: string): boolean {
  const name = dataset.split(/[\\/]/).pop() ?? dataset;
  return /(^|[-_.])train([-_.]|$)/i.test(name);
}
