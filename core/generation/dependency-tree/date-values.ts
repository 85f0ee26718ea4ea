/**
 * Dates as questions write them, normalised to the ISO text SQL compares against:
 * "January 5, 2010" / "5 January 2010" → 2010-01-05, "2013/2/22" → 2013-02-22,
 * "September 2005" → 2005-09, a bare year → the number.
 */

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

function monthNumber(word: string): number | null {
  const w = word.toLowerCase().replace(/\.$/, '');
  const i = MONTHS.findIndex((m) => m === w || (w.length >= 3 && m.startsWith(w)));
  return i < 0 ? null : i + 1;
}

const pad = (n: number): string => String(n).padStart(2, '0');

/** Years a database plausibly stores; keeps "3 cylinders" or "500 students" from reading as years. */
export function isPlausibleYear(n: number): boolean {
  return Number.isInteger(n) && n >= 1000 && n <= 2100;
}

/** ISO text of a written date, or null when the text is not a date this understands. */
export function normaliseDate(text: string): string | null {
  const t = text
    .trim()
    .replace(/(\d)(st|nd|rd|th)\b/gi, '$1')
    .replace(/,/g, ' ')
    .replace(/\s+/g, ' ');
  let m = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})$/.exec(t);
  if (m) return `${m[1]}-${pad(+m[2])}-${pad(+m[3])}`;
  m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(t);
  if (m) return `${m[3]}-${pad(+m[1])}-${pad(+m[2])}`; // US order, as English questions write it
  m = /^(\d{4})[-/](\d{1,2})$/.exec(t);
  if (m && +m[2] <= 12) return `${m[1]}-${pad(+m[2])}`;
  m = /^([A-Za-z]+\.?) (\d{1,2}) (\d{4})$/.exec(t);
  if (m && monthNumber(m[1])) return `${m[3]}-${pad(monthNumber(m[1])!)}-${pad(+m[2])}`;
  m = /^(\d{1,2}) ([A-Za-z]+\.?) (\d{4})$/.exec(t);
  if (m && monthNumber(m[2])) return `${m[3]}-${pad(monthNumber(m[2])!)}-${pad(+m[1])}`;
  m = /^([A-Za-z]+\.?) (?:of )?(\d{4})$/.exec(t);
  if (m && monthNumber(m[1])) return `${m[2]}-${pad(monthNumber(m[1])!)}`;
  return null;
}
