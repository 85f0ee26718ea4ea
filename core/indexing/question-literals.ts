/**
 * The literals a question may be quoting, for value-index lookups (DexterSQL §3.2 Step 1:
 * "extracting literals from NLQ and searching valIndex for similar values"): quoted text,
 * numbers, and every run of one to `maxWords` consecutive words that does not start or end
 * with a function word ("the", "of", "how", ...). No model, no dictionary of the database: the
 * indices decide which of these are values.
 */
const FUNCTION_WORDS = new Set(
  (
    'a an the of in on at to for from by with and or not no is are was were be been do does did has have had ' +
    'what which who whom whose when where why how many much all any each every that this these those than ' +
    'there their its it they them his her he she we you i me my our your as into about over under between ' +
    'show list give find return tell name names count number total average mean sum max min maximum minimum ' +
    'more most less least fewer greater larger smaller higher lower also only just both either per order sort sorted ' +
    'descending ascending alphabetical different distinct ids id whose'
  ).split(' '),
);

export interface QuestionLiterals {
  /** Text between quotes, as written. */
  quoted: string[];
  /** Numbers as written (integers and decimals). */
  numbers: string[];
  /** Word runs of 1..maxWords words, longest first, without function words at either end. */
  phrases: string[];
}

export function questionLiterals(question: string, maxWords = 3): QuestionLiterals {
  const quoted = quotedSpans(question).map((span) => span.text);
  const numbers = [...question.matchAll(/(?<![\w.])-?\d+(?:\.\d+)?(?![\w.])/g)].map((m) => m[0]);
  const words = question.match(/[\p{L}\p{N}][\p{L}\p{N}'&.-]*[\p{L}\p{N}]|[\p{L}\p{N}]/gu) ?? [];
  const phrases = new Set<string>();
  for (let n = Math.min(maxWords, words.length); n >= 1; n--) {
    for (let i = 0; i + n <= words.length; i++) {
      const run = words.slice(i, i + n);
      if (isFunctionWord(run[0]) || isFunctionWord(run[n - 1])) continue;
      phrases.add(run.join(' '));
    }
  }
  return { quoted, numbers, phrases: [...phrases] };
}

export interface QuotedSpan {
  /** The quoted text, trimmed. */
  text: string;
  /** UTF-16 offsets of the text between the quotes (quotes excluded). */
  start: number;
  end: number;
}

/**
 * Text between matching quotes. A single quote only opens after a non-word character and only
 * closes before one, so apostrophes ("singer's", "Jack's 'Best' album") do not open a literal.
 */
export function quotedSpans(question: string): QuotedSpan[] {
  const spans: QuotedSpan[] = [];
  for (const m of question.matchAll(/"([^"]+)"|(?<!\w)'([^']+)'(?!\w)|“([^”]+)”|‘([^’]+)’/g)) {
    const raw = m[1] ?? m[2] ?? m[3] ?? m[4];
    const text = raw.trim();
    if (!text) continue;
    const start = m.index + 1 + raw.indexOf(text);
    spans.push({ text, start, end: start + text.length });
  }
  return spans;
}

function isFunctionWord(word: string): boolean {
  return FUNCTION_WORDS.has(word.toLowerCase());
}
