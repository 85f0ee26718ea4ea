import { impliedAttributes } from './attribute-words';
import { nameTokens } from '../preparation/name-tokens';
import type { ProfileIndexText } from '../preparation/preparation-config';
import type { ColumnProfile } from '../profiling/column-profile';
import { renderSqlValue } from '../sql-value';
// The Porter stemmer that ships with wink-eng-lite-web-model (already a dependency, pinned).
const porterStem = require('wink-eng-lite-web-model/dist/porter-stemmer.js') as (word: string) => string;

/**
 * The texts the profile index embeds and searches with. Names and questions are reduced to
 * stemmed name tokens on both sides, so "enrolled" meets `enrolment`, "countries" meets
 * `CountryName` and "students" meets `StuID`'s table `Student`.
 *
 * `names` (table, column, documentation) or `profile` (the same, plus what the paper's profile
 * adds that a question can share words with: declared type, value format and sample values, in
 * the same stemmed terms). With the default lexical embedder, values drown the names: on Spider
 * dev, retrieval found 0.8713 of the gold columns with `profile` against 0.9539 with `names`,
 * at 0.35 of the columns kept (`npm run bench:linking -- --profile-text ...`), so `names` is
 * the default. The column's own tokens appear
 * twice: they tell columns of one table apart, the table's tokens do not.
 */
export function retrievalTerms(text: string): string {
  return nameTokens(text).map(porterStem).join(' ');
}

export function renderProfileIndexText(p: ColumnProfile, text: ProfileIndexText): string {
  const column = retrievalTerms(p.column);
  const doc = p.documentation;
  const names = [
    retrievalTerms(p.table),
    column,
    column,
    doc?.fullName ? retrievalTerms(doc.fullName) : '',
    doc?.description ? retrievalTerms(doc.description) : '',
  ];
  const profile = text === 'profile' ? [p.declaredType, p.format.replace(/_/g, ' '), ...p.sample.map(renderSqlValue)].map(retrievalTerms) : [];
  return [...names, ...profile].filter(Boolean).join(' ');
}

/** A question as the profile index is searched with it: stemmed terms plus the attributes its comparatives imply. */
export function questionSearchText(question: string): string {
  const words = question.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  return [retrievalTerms(question), ...impliedAttributes(words).map(porterStem)].join(' ');
}
