import { impliedAttributes } from './attribute-words';
import { nameTokens } from '../preparation/name-tokens';
import type { ColumnProfile } from '../profiling/column-profile';
// The Porter stemmer that ships with wink-eng-lite-web-model (already a dependency, pinned).
const porterStem = require('wink-eng-lite-web-model/dist/porter-stemmer.js') as (word: string) => string;

/**
 * The texts the profile index embeds and searches with. Names and questions are reduced to
 * stemmed name tokens on both sides, so "enrolled" meets `enrolment`, "countries" meets
 * `CountryName` and "students" meets `StuID`'s table `Student`.
 *
 * Why not the whole profile: with the default (lexical, hashed) embedder, the statistics and
 * sample values of a profile drown its names — on Spider dev, profile-index retrieval found
 * 0.69 of the gold columns with whole profiles and 0.94 with this text, at the same share of
 * columns kept. Values are what the value index is for. The column's own tokens appear twice:
 * they tell columns of one table apart, the table's tokens do not.
 */
export function retrievalTerms(text: string): string {
  return nameTokens(text).map(porterStem).join(' ');
}

export function renderProfileIndexText(p: ColumnProfile): string {
  const column = retrievalTerms(p.column);
  const doc = p.documentation;
  return [retrievalTerms(p.table), column, column, doc?.fullName ? retrievalTerms(doc.fullName) : '', doc?.description ? retrievalTerms(doc.description) : '']
    .filter(Boolean)
    .join(' ');
}

/** A question as the profile index is searched with it: stemmed terms plus the attributes its comparatives imply. */
export function questionSearchText(question: string): string {
  const words = question.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  return [retrievalTerms(question), ...impliedAttributes(words).map(porterStem)].join(' ');
}
