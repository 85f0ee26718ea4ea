/**
 * DecoSearch's name remapping (Algorithm 2, FM): a name the LLM returned is mapped to the real
 * schema name it means, first by exact (case-insensitive) match, then by the closest string
 * above a similarity floor; a name close to nothing is dropped rather than guessed.
 */
export const FUZZY_MATCH_FLOOR = 0.8;

/** Lower case, without quotes, brackets, backticks, or the difference between `_`, `-` and spaces. */
function normalize(name: string): string {
  return name
    .toLowerCase()
    .replace(/[`"'[\]]/g, '')
    .replace(/[\s_-]+/g, '_')
    .trim();
}

function levenshtein(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length];
}

/** 1 for equal strings, 0 for nothing in common (normalised edit distance). */
export function nameSimilarity(a: string, b: string): number {
  const x = normalize(a);
  const y = normalize(b);
  if (!x.length && !y.length) return 1;
  return 1 - levenshtein(x, y) / Math.max(x.length, y.length);
}

/** The real name each returned name stands for (deduplicated, in the order returned). */
export function remapNames(returned: string[], real: string[], floor = FUZZY_MATCH_FLOOR): string[] {
  const out: string[] = [];
  for (const name of returned) {
    const exact = real.find((r) => normalize(r) === normalize(name));
    let match = exact;
    if (!match) {
      let best = floor;
      for (const r of real) {
        const score = nameSimilarity(r, name);
        if (score >= best) [best, match] = [score, r];
      }
    }
    if (match && !out.includes(match)) out.push(match);
  }
  return out;
}
