/**
 * What `decodex mine-rules` tells about the examples its question runs are shown. Mining answers
 * training questions; a few-shot index (or decomposition knowledge base) built from the same
 * training set holds each of them with its gold SQL. decodex excludes rather than refuses: every
 * retrieval leaves out the question being answered and any copy of its text
 * (core/knowledge/without-question.ts), so the rest of the index still serves as examples.
 */
export function exampleExclusion(dataset: string, fewShotSources: string[] | undefined): string {
  const rule = 'each question is never shown itself (nor a copy of its text) as a few-shot or decomposition example';
  if (!fewShotSources) return `no few-shot index is built; ${rule}`;
  const same = fewShotSources.includes(dataset);
  return same
    ? `the few-shot index was built from ${dataset}, the set being mined: its entries for the mined questions are excluded (${rule})`
    : `the few-shot index was built from ${fewShotSources.join(', ') || 'examples given directly'}, not from ${dataset}; still, ${rule}`;
}
