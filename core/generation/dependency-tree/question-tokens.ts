import type WinkNlp from 'wink-nlp';
import type WinkModel from 'wink-eng-lite-web-model';

/**
 * The question as tokens with universal POS tags, lemmas, negation and wink-nlp's entities
 * (CARDINAL, DATE, MONEY, PERCENT, ...). wink-nlp gives no dependency arcs; the rule layer in
 * this folder attaches chunks to each other instead.
 */
export interface QuestionToken {
  index: number;
  text: string;
  lower: string;
  lemma: string;
  /** Universal POS; sentence-initial imperatives ("List", "Name") come out PROPN. */
  pos: string;
  /** UTF-16 offsets into the question. */
  start: number;
  end: number;
  /** wink-nlp's negation scope flag ("did not play in 1991": play, in, 1991 are negated). */
  negated: boolean;
  /** First token of its sentence. */
  sentenceStart: boolean;
  /** Inside quotes (the quotes themselves excluded). */
  quoted: boolean;
}

export interface EntitySpan {
  type: string;
  first: number;
  last: number;
}

export interface TokenizedQuestion {
  question: string;
  tokens: QuestionToken[];
  entities: EntitySpan[];
}

type Nlp = ReturnType<typeof WinkNlp>;
let loaded: Nlp | null = null;

/**
 * Loading the model takes ~100 ms and tens of MB, so it happens once per process, on first use:
 * the packages are required here, not imported, so a process that never tokenizes a question
 * (a preparation worker) never holds them (about 25 MB).
 */
function nlp(): Nlp {
  if (!loaded) {
    const winkNLP = require('wink-nlp') as typeof WinkNlp;
    loaded = winkNLP(require('wink-eng-lite-web-model') as typeof WinkModel);
  }
  return loaded;
}

export function tokenizeQuestion(question: string, quotedRanges: [number, number][]): TokenizedQuestion {
  const doc = nlp().readDoc(question);
  const its = nlp().its;
  // wink's typings do not cover every `its` helper (lemma's signature differs), hence the casts.
  const column = <T>(helper: unknown): T[] => doc.tokens().out(helper as never) as unknown as T[];
  const texts = doc.tokens().out();
  const pos = column<string>(its.pos);
  const lemmas = column<string>(its.lemma);
  const negation = column<boolean>(its.negationFlag);
  const sentenceStarts = new Set((doc.sentences().out(its.span) as unknown as [number, number][]).map(([first]) => first));
  const tokens: QuestionToken[] = [];
  let cursor = 0;
  texts.forEach((text, index) => {
    // wink keeps each token's text as written, so offsets are recovered by scanning forward.
    const found = question.indexOf(text, cursor);
    const start = found >= 0 ? found : cursor;
    const end = found >= 0 ? found + text.length : cursor;
    cursor = end;
    tokens.push({
      index,
      text,
      lower: text.toLowerCase(),
      lemma: (lemmas[index] ?? text).toLowerCase(),
      pos: pos[index] ?? 'X',
      start,
      end,
      negated: negation[index] === true,
      sentenceStart: sentenceStarts.has(index),
      quoted: quotedRanges.some(([from, to]) => start >= from && end <= to),
    });
  });
  const spans = doc.entities().out(its.span) as unknown as [number, number][];
  const details = doc.entities().out(its.detail) as unknown as { type: string }[];
  const entities = spans.map(([first, last], i) => ({ type: details[i].type, first, last }));
  return { question, tokens, entities };
}
