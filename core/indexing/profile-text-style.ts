import type { ProfileIndexText } from '../preparation/preparation-config';
import type { ColumnProfile } from '../profiling/column-profile';
import { questionSearchText, renderProfileIndexText } from './retrieval-text';
import { renderProfileSentence } from './sentence-retrieval-text';

/**
 * How the profile index writes a column and a question for its embedder: `terms` (stemmed name
 * tokens, core/indexing/retrieval-text) for a lexical embedder, which matches spelling;
 * `sentences` (words as written, core/indexing/sentence-retrieval-text) for one that reads
 * meaning and would not know a stem like "countri".
 */
export type ProfileTextStyle = 'terms' | 'sentences';

/** `text` is what is written (preparation config `index.profileText`: names, or the whole profile); `style` how. */
export function profileIndexText(p: ColumnProfile, style: ProfileTextStyle, text: ProfileIndexText = 'names'): string {
  return style === 'terms' ? renderProfileIndexText(p, text) : renderProfileSentence(p, text);
}

export function profileQueryText(question: string, style: ProfileTextStyle): string {
  return style === 'terms' ? questionSearchText(question) : question;
}
