/**
 * "Structurally similar" questions (DexterSQL's few-shot path): questions compared by their
 * shape, not their topic. Values are masked (numbers, quoted strings, capitalised names inside
 * the sentence), so "How many singers are from France?" and "How many pets are older than 3?"
 * share `how many ... are ...` and a masked literal, while topic words weigh no more than others.
 */
export function questionShape(question: string): string[] {
  const masked = question
    .replace(/(["'`])(?:(?!\1).)*\1/g, ' VALUE ')
    .replace(/\b\d[\d,.]*\b/g, ' NUMBER ')
    .replace(/(?<=\S\s+)(?:[A-Z][\w-]*)(?:\s+[A-Z][\w-]*)*/g, ' VALUE ');
  const tokens = masked.toLowerCase().match(/[a-z]+/g) ?? [];
  const shape: string[] = [];
  for (let i = 0; i < tokens.length; i++) shape.push(tokens[i], i + 1 < tokens.length ? `${tokens[i]}_${tokens[i + 1]}` : '');
  return [...new Set(shape.filter(Boolean))];
}

/** The shape as one text, for an embedding that stands for it in a vector index (the question itself when it has no shape). */
export function questionShapeText(question: string): string {
  return questionShape(question).join(' ') || question;
}

function jaccard(a: Set<string>, b: Set<string>): number {
  let shared = 0;
  for (const x of a) if (b.has(x)) shared++;
  const union = a.size + b.size - shared;
  return union === 0 ? 0 : shared / union;
}

/** The k most similar items by question shape (ties keep input order, so the choice is reproducible). */
export function mostSimilarByShape<T extends { question: string }>(question: string, items: T[], k: number): T[] {
  const target = new Set(questionShape(question));
  return items
    .map((item, i) => ({ item, i, score: jaccard(target, new Set(questionShape(item.question))) }))
    .sort((x, y) => y.score - x.score || x.i - y.i)
    .slice(0, k)
    .map((x) => x.item);
}
