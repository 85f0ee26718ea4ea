/**
 * Whether a question mentions a name from the schema, by stem: names are split at underscores,
 * case changes and digits; a word and a question word match when the shorter of their stems
 * begins the longer (`voting` matches "votes", `enrolment` matches "enrolled", `concert` matches
 * "concerts"). Plain spelling, no synonyms: a check built on it only ever warns, and the reviser
 * decides.
 */

const MIN_WORD = 3;
const MIN_STEM = 3;
const SUFFIXES = ['ments', 'ment', 'ings', 'ing', 'ions', 'ion', 'ers', 'er', 'ies', 'es', 'ed', 's'];
const FILLER = new Set(['the', 'and', 'for', 'has', 'have', 'with', 'from', 'into', 'per', 'ref', 'tbl', 'info', 'data', 'list', 'type', 'types', 'table']);

/** The words of a schema name: `singer_in_concert` → singer, concert; `PetType` → pet, type. */
export function nameWords(name: string): string[] {
  return name
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter((w) => w.length >= MIN_WORD && !FILLER.has(w));
}

export function questionWords(question: string): string[] {
  return question
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter(Boolean);
}

/** A crude stem: one common suffix off, then a final e (`votes`, `voting`, `vote` → vot). */
export function stem(word: string): string {
  const suffix = SUFFIXES.find((s) => word.endsWith(s) && word.length - s.length >= MIN_STEM);
  const base = suffix ? word.slice(0, -suffix.length) : word;
  return base.length > MIN_STEM && base.endsWith('e') ? base.slice(0, -1) : base;
}

/** True when some question word has the word's stem, or a stem the word's begins with. */
export function mentions(words: readonly string[], word: string): boolean {
  const own = stem(word);
  return words.some((w) => {
    const other = stem(w);
    const [shorter, longer] = other.length < own.length ? [other, own] : [own, other];
    return shorter.length >= MIN_STEM && longer.startsWith(shorter);
  });
}
