/**
 * Normalised name tokens, Token(A) of DexterSQL §3.1.3 Step 1: `customerID`, `Customer_Id`
 * and `customer ids` all become ["customer", "id"]. Splits on separators, camelCase and
 * letter/digit boundaries, lower-cases, folds simple plurals, and spells out the
 * abbreviations schema authors use most, so "num_of_orders" meets "number of orders".
 */
const ABBREVIATIONS = new Map<string, string>(
  Object.entries({
    no: 'number',
    num: 'number',
    nbr: 'number',
    qty: 'quantity',
    amt: 'amount',
    dt: 'date',
    desc: 'description',
    addr: 'address',
    dept: 'department',
    pct: 'percent',
    yr: 'year',
    avg: 'average',
    max: 'maximum',
    min: 'minimum',
    tel: 'phone',
    dob: 'birthday',
  }),
);

export function nameTokens(name: string): string[] {
  const words = name
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .replace(/([A-Za-z])(?=\d)/g, '$1 ')
    .replace(/(\d)(?=[A-Za-z])/g, '$1 ')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  return words.map((w) => singular(ABBREVIATIONS.get(w) ?? w));
}

function singular(word: string): string {
  if (word.length <= 3 || word.endsWith('ss') || word.endsWith('us') || word.endsWith('is')) return word;
  if (word.endsWith('ies')) return word.slice(0, -3) + 'y';
  if (word.endsWith('s')) return word.slice(0, -1);
  return word;
}

/** Jaccard overlap of two names' token sets (0 when either has none). */
export function nameTokenOverlap(a: string, b: string): number {
  const x = new Set(nameTokens(a));
  const y = new Set(nameTokens(b));
  if (x.size === 0 || y.size === 0) return 0;
  let shared = 0;
  for (const t of x) if (y.has(t)) shared++;
  return shared / (x.size + y.size - shared);
}

const IDENTIFIER_TOKENS = new Set(['id', 'key', 'uuid', 'guid', 'pk', 'fk']);

/** Names that say "I am a key": `id`, `student_id`, `customerKey`, `uuid`. */
export function hasIdentifierName(column: string): boolean {
  const tokens = nameTokens(column);
  return tokens.length > 0 && IDENTIFIER_TOKENS.has(tokens[tokens.length - 1]);
}
