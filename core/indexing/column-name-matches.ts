import { impliedAttributes } from './attribute-words';

/**
 * Columns of the tables already found whose names the question says: "the names of the
 * singers" names `singer.name`, "older than 30" implies `age`. A profile index ranks columns
 * by resemblance and can miss an obvious one when a table has many similar columns; a word the
 * question actually uses is stronger evidence, and it is cheap: only the found tables' columns
 * are compared, by their name words (split at `_`, spaces and camelCase, singular) other than
 * the table's own and words too generic to tell columns apart (id, number, type, code).
 */
const IGNORED = new Set([
  'the',
  'of',
  'a',
  'an',
  'and',
  'or',
  'in',
  'on',
  'for',
  'to',
  'by',
  'is',
  'at',
  'with',
  'type',
  'code',
  'info',
  'detail',
  'details',
  'id',
  'number',
  'no',
]);

function singular(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 3 && /(ses|xes|ches|shes)$/.test(word)) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

export function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w && !IGNORED.has(w))
    .map(singular);
}

export function columnNameMatches(question: string, tables: { name: string; columns: string[] }[]): { table: string; column: string; word: string }[] {
  const words = question.toLowerCase().match(/[a-z0-9]+/g) ?? [];
  const said = new Set([...words.map(singular), ...impliedAttributes(words)]);
  const matches: { table: string; column: string; word: string }[] = [];
  for (const table of tables) {
    // `student_name` in `Students` is distinguished by "name", not by "student": every column of
    // the table shares that word, and a question about students says it without meaning them all.
    const own = new Set(nameWords(table.name));
    for (const column of table.columns) {
      const word = nameWords(column).find((w) => said.has(w) && !own.has(w));
      if (word) matches.push({ table: table.name, column, word });
    }
  }
  return matches;
}
