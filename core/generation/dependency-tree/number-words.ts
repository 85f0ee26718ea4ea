/**
 * Numbers as questions write them: digits with thousands separators ("1,000"), decimals,
 * percentages ("5%"), money ("$1,000", "USD100,000") and English number words ("three",
 * "twenty five", "two hundred"). The skeleton carries the number, since that is what SQL compares.
 */

const UNITS: Record<string, number> = {
  zero: 0,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
};
const TENS: Record<string, number> = { twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90 };
const SCALES: Record<string, number> = { hundred: 100, thousand: 1_000, million: 1_000_000, billion: 1_000_000_000 };

/** The value of one number written in digits ("1,000", "2.5", "-3", "5%", "$20"), or null. */
export function digitsValue(text: string): number | null {
  const cleaned = text.replace(/^(?:usd|eur|\$|€|£)/i, '').replace(/%$/, '');
  if (!/^-?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?$/.test(cleaned)) return null;
  return Number(cleaned.replaceAll(',', ''));
}

export function isNumberWord(word: string): boolean {
  const w = word.toLowerCase();
  return w in UNITS || w in TENS || w in SCALES;
}

/**
 * The value of consecutive number words ("twenty five", "two hundred", "three"), or null when
 * they do not form one number. Hyphenated forms ("twenty-five") arrive as one word.
 */
export function numberWordsValue(words: string[]): number | null {
  const parts = words.flatMap((w) => w.toLowerCase().split('-')).filter((w) => w !== 'and');
  if (parts.length === 0 || !parts.every(isNumberWord)) return null;
  let total = 0;
  let current = 0;
  for (const part of parts) {
    if (part in UNITS) current += UNITS[part];
    else if (part in TENS) current += TENS[part];
    else if (SCALES[part] === 100) current = (current || 1) * 100;
    else {
      total += (current || 1) * SCALES[part];
      current = 0;
    }
  }
  return total + current;
}
