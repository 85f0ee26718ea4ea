/**
 * Words that ask about an attribute without naming it: "older" asks about an age, "heaviest"
 * about a weight. A question is embedded with the attribute nouns its comparatives and
 * superlatives imply, so the profile index can find `age` for "students older than 20" — a
 * link no spelling similarity makes. Small on purpose: only the common, unambiguous cases.
 */
const IMPLIES: Record<string, string[]> = {
  age: ['old', 'older', 'oldest', 'young', 'younger', 'youngest', 'aged'],
  height: ['tall', 'taller', 'tallest', 'short', 'shorter', 'shortest'],
  weight: ['heavy', 'heavier', 'heaviest', 'light', 'lighter', 'lightest'],
  price: ['cheap', 'cheaper', 'cheapest', 'expensive', 'costly', 'costs'],
  date: ['earliest', 'latest', 'recent', 'recently', 'when'],
  year: ['earliest', 'latest', 'recent', 'when'],
  length: ['long', 'longer', 'longest'],
  size: ['big', 'bigger', 'biggest', 'large', 'larger', 'largest', 'small', 'smaller', 'smallest'],
  capacity: ['biggest', 'largest', 'smallest'],
  population: ['populous', 'populated', 'people', 'live', 'living'],
  speed: ['fast', 'faster', 'fastest', 'slow', 'slower', 'slowest'],
  salary: ['paid', 'earn', 'earns'],
  location: ['where', 'located'],
  phone: ['call', 'cell', 'mobile'],
};

const BY_WORD = new Map<string, string[]>();
for (const [attribute, words] of Object.entries(IMPLIES)) {
  for (const word of words) BY_WORD.set(word, [...(BY_WORD.get(word) ?? []), attribute]);
}

/** The attribute nouns the words of a question imply, each once, in first-seen order. */
export function impliedAttributes(words: string[]): string[] {
  const found = new Set<string>();
  for (const word of words) for (const attribute of BY_WORD.get(word.toLowerCase()) ?? []) found.add(attribute);
  return [...found];
}
