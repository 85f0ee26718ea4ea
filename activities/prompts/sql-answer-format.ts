import type { SqlAnswerFormat } from '../llm/llm-config';
import type { JsonSchema } from '../llm/json-schema';
import type { ChatMessage } from '../llm/llm-provider';

/**
 * How a role that writes SQL is asked for its answer. Every such template ends its instructions
 * with one sentence of the shape `Answer with only a JSON object with two keys: "reasoning" (R)
 * and "sql" (Q).` and has the schema `{sql, reasoning}`; the template stays the one source of
 * what R and Q are, and the other formats are derived from that sentence:
 *
 * - `json`: as written. The schema lists `sql` first, so a grammar-constrained model writes the
 *   query before any reasoning, inside a JSON string.
 * - `json-reasoning-first`: the same object with `reasoning` first, so the model reasons before
 *   it writes the query.
 * - `fenced`: free text, no grammar: R in a sentence or two, then Q in one ```sql block. A small
 *   model writes SQL as SQL (no quoting inside a string) after its reasoning.
 * - `plain`: only Q, as plain SQL text, the way code models are trained and evaluated on
 *   text-to-SQL (schema, question, then the query cut at its `;`): no reasoning, no quoting.
 */
export type SqlAnswer = { sql: string; reasoning: string };

const ANSWER_SENTENCE = /Answer with only a JSON object with two keys: "reasoning" \((.*?)\) and "sql" \((.*?)\)\./;

/** True when the template's answer is a query (`{sql, reasoning}`): the formats apply to it. */
export function writesSql(schema: JsonSchema): boolean {
  const keys = Object.keys(schema.properties ?? {});
  return keys.length === 2 && keys.includes('sql') && keys.includes('reasoning');
}

/** How the LLM service reads a free-text answer, and the re-ask one it cannot read gets. */
export interface TextAnswerReader {
  /** `cutOff`: the answer stopped at the token cap or in a loop. */
  parse: (text: string, cutOff: boolean) => { ok: true; value: SqlAnswer } | { ok: false; problems: string[] };
  repair: string;
}

/**
 * A SQL-writing prompt in `format`: its messages, and either the JSON schema its answer must
 * satisfy or (free-text formats) the reader of its text.
 */
export function inSqlFormat(
  messages: ChatMessage[],
  schema: JsonSchema,
  format: SqlAnswerFormat,
): { messages: ChatMessage[]; schema: JsonSchema } | { messages: ChatMessage[]; text: TextAnswerReader } {
  if (format === 'json') return { messages, schema };
  if (format === 'json-reasoning-first') {
    const { sql, reasoning } = schema.properties as Record<string, JsonSchema>;
    return { messages, schema: { ...schema, properties: { reasoning, sql }, required: ['reasoning', 'sql'] } };
  }
  const sentence = format === 'fenced' ? fencedSentence : plainSentence;
  const reworded = messages.map((m) => (m.role === 'system' ? { ...m, content: withAnswerSentence(m.content, sentence) } : m));
  return { messages: reworded, text: format === 'fenced' ? FENCED_ANSWER : PLAIN_ANSWER };
}

/** The template's answer sentence replaced by `sentence(reasoning, query)`. */
function withAnswerSentence(system: string, sentence: (reasoning: string, query: string) => string): string {
  const match = ANSWER_SENTENCE.exec(system);
  if (!match) throw new Error('a SQL-writing prompt must end its instructions with the JSON answer sentence (see sql-answer-format.ts)');
  return system.replace(ANSWER_SENTENCE, sentence(match[1], match[2].replace(/, as one string$/, '')));
}

const fencedSentence = (reasoning: string, query: string) =>
  `Answer in two parts: first your reasoning (${reasoning}) as plain text, then ${query} in one \`\`\`sql code block, and nothing after the block.`;

const plainSentence = (_reasoning: string, query: string) => `Answer with only ${query}, as plain SQL ending with a semicolon, and nothing else.`;

/** A free-text answer's query, and whether the query ended in the text (a closed fence, a `;`, a blank line after it). */
interface ReadSql {
  answer: SqlAnswer;
  ended: boolean;
}

/**
 * The query and reasoning of a free-text answer: the last fenced block is the query, the text
 * before it the reasoning. A fence is a line of its own (```, ```sql), so prose that mentions
 * "a ```sql block" (small models echo the instruction) opens none; a block the answer's end cut
 * off runs to the end. An answer that is only a query (no fence, it starts with SELECT or WITH) is
 * taken whole. Null when there is no query to take.
 */
export function parseFencedSql(text: string): SqlAnswer | null {
  return readFenced(text)?.answer ?? null;
}

function readFenced(text: string): ReadSql | null {
  const lines = text.split('\n');
  let last: { start: number; body: string[] } | null = null;
  let open: { start: number; body: string[] } | null = null;
  for (let i = 0; i < lines.length; i++) {
    const fence = /^\s*```\s*([A-Za-z]*)\s*$/.exec(lines[i]);
    if (open && fence && !fence[1]) {
      last = open;
      open = null;
    } else if (open) {
      open.body.push(lines[i]);
    } else if (fence) {
      open = { start: i, body: [] };
    }
  }
  const unclosed = !!open && !!open.body.join('\n').trim();
  const block = unclosed ? open : last;
  const sql = block?.body.join('\n').trim();
  if (block && sql) return { answer: { sql, reasoning: lines.slice(0, block.start).join('\n').trim().slice(0, 400) }, ended: !unclosed };
  const bare = text.trim();
  if (/^(SELECT|WITH)\b/i.test(bare)) return { answer: { sql: bare, reasoning: '' }, ended: /;$/.test(bare) };
  return null;
}

/**
 * The query of a plain answer: a fenced block if the model wrote one anyway, else the text from
 * its first line that opens a query (SELECT, WITH, or a parenthesised SELECT), or failing that
 * another statement, to the first `;` outside quotes, or to a blank line (prose after a query
 * without its `;`). Null when no line opens a statement.
 */
export function parsePlainSql(text: string): SqlAnswer | null {
  return readPlain(text)?.answer ?? null;
}

function readPlain(text: string): ReadSql | null {
  const fenced = /^\s*```/m.test(text) ? readFenced(text) : null;
  if (fenced) return { answer: { sql: cutAtStatementEnd(fenced.answer.sql).sql, reasoning: fenced.answer.reasoning }, ended: fenced.ended };
  const lines = text.split('\n');
  // A query opens with SELECT or WITH. Failing that, a statement the guard will refuse (a model
  // told to answer that writes DROP TABLE) is still the answer: refused as writing, not unread.
  let start = lines.findIndex((line) => /^\s*\(?\s*(SELECT|WITH)\b/i.test(line));
  if (start < 0) start = lines.findIndex((line) => STATEMENT_START.test(line));
  if (start < 0) return null;
  const { sql, ended } = cutAtStatementEnd(lines.slice(start).join('\n'));
  return sql ? { answer: { sql, reasoning: lines.slice(0, start).join('\n').trim().slice(0, 400) }, ended } : null;
}

/** The first word of an SQL statement other than a query, on any of the three engines. */
const STATEMENT_START =
  /^\s*(INSERT|UPDATE|DELETE|REPLACE|MERGE|UPSERT|DROP|CREATE|ALTER|TRUNCATE|RENAME|GRANT|REVOKE|ATTACH|DETACH|PRAGMA|VACUUM|REINDEX|ANALYZE|SET|RESET|CALL|DO|EXEC|EXECUTE|PREPARE|DEALLOCATE|COPY|LOAD|HANDLER|LOCK|UNLOCK|BEGIN|START|COMMIT|ROLLBACK|SAVEPOINT|RELEASE|DECLARE|FETCH|CLOSE|LISTEN|NOTIFY|DISCARD|CHECKPOINT|CLUSTER|REFRESH|SHOW|DESCRIBE|DESC|EXPLAIN|USE|KILL|FLUSH|INSTALL|UNINSTALL|TABLE|VALUES)\b/i;

/** `sql` up to its first `;` outside quotes, or its first blank line, trimmed; `ended` when either was found. */
function cutAtStatementEnd(sql: string): { sql: string; ended: boolean } {
  let quote: string | null = null;
  for (let i = 0; i < sql.length; i++) {
    const ch = sql[i];
    if (quote) {
      if (ch === quote) quote = null;
    } else if (ch === "'" || ch === '"' || ch === '`') {
      quote = ch;
    } else if (ch === ';') {
      return { sql: sql.slice(0, i).trim(), ended: true };
    } else if (ch === '\n' && /^\s*\n/.test(sql.slice(i + 1))) {
      return { sql: sql.slice(0, i).trim(), ended: true };
    }
  }
  return { sql: sql.trim(), ended: false };
}

/**
 * A reader for the LLM service. An answer cut off (token cap, loop) is read only if its query
 * ended before the cut: a query cut mid-way would run as another query, or fail as a wrong one.
 */
function reader(read: (text: string) => ReadSql | null, problem: string, repair: string): TextAnswerReader {
  return {
    parse: (text, cutOff) => {
      const found = read(text);
      if (!found) return { ok: false, problems: [problem] };
      if (cutOff && !found.ended) return { ok: false, problems: ['the answer was cut off before its query ended'] };
      return { ok: true, value: found.answer };
    },
    repair,
  };
}

/** How the LLM service reads a fenced answer, and the re-ask one without a query gets. */
export const FENCED_ANSWER = reader(readFenced, 'no ```sql block with a query', 'Your answer has no query. Write the query in one ```sql code block.');

/** How it reads a plain answer. */
export const PLAIN_ANSWER = reader(readPlain, 'no line opens a query', 'Your answer has no query. Write only the SQL query, starting with SELECT.');
