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
  parse: (text: string) => { ok: true; value: SqlAnswer } | { ok: false; problems: string[] };
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

/**
 * The query and reasoning of a free-text answer: the last fenced block is the query, the text
 * before it the reasoning. A fence is a line of its own (```, ```sql), so prose that mentions
 * "a ```sql block" (small models echo the instruction) opens none; a block the answer's end cut
 * off runs to the end. An answer that is only a query (no fence, it starts with SELECT or WITH) is
 * taken whole. Null when there is no query to take.
 */
export function parseFencedSql(text: string): SqlAnswer | null {
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
  const block = open && open.body.join('\n').trim() ? open : last;
  const sql = block?.body.join('\n').trim();
  if (block && sql) return { sql, reasoning: lines.slice(0, block.start).join('\n').trim().slice(0, 400) };
  const bare = text.trim();
  if (/^(SELECT|WITH)\b/i.test(bare)) return { sql: bare, reasoning: '' };
  return null;
}

/**
 * The query of a plain answer: a fenced block if the model wrote one anyway, else the text from
 * its first line that opens a query (SELECT, WITH, or a parenthesised SELECT) to the first `;`
 * outside quotes, or to a blank line (prose after a query without its `;`). Null when no line
 * opens a query.
 */
export function parsePlainSql(text: string): SqlAnswer | null {
  const fenced = /^\s*```/m.test(text) ? parseFencedSql(text) : null;
  if (fenced) return { sql: cutAtStatementEnd(fenced.sql), reasoning: fenced.reasoning };
  const lines = text.split('\n');
  const start = lines.findIndex((line) => /^\s*\(?\s*(SELECT|WITH)\b/i.test(line));
  if (start < 0) return null;
  const sql = cutAtStatementEnd(lines.slice(start).join('\n'));
  return sql ? { sql, reasoning: lines.slice(0, start).join('\n').trim().slice(0, 400) } : null;
}

/** `sql` up to its first `;` outside quotes and comments, or its first blank line; trimmed. */
function cutAtStatementEnd(sql: string): string {
  let quote: string | null = null;
  for (let i = 0; i < sql.length; i++) {
    const ch = sql[i];
    if (quote) {
      if (ch === quote) quote = null;
    } else if (ch === "'" || ch === '"' || ch === '`') {
      quote = ch;
    } else if (ch === ';') {
      return sql.slice(0, i).trim();
    } else if (ch === '\n' && /^\s*\n/.test(sql.slice(i + 1))) {
      return sql.slice(0, i).trim();
    }
  }
  return sql.trim();
}

function reader(parse: (text: string) => SqlAnswer | null, problem: string, repair: string): TextAnswerReader {
  return {
    parse: (text) => {
      const answer = parse(text);
      return answer ? { ok: true, value: answer } : { ok: false, problems: [problem] };
    },
    repair,
  };
}

/** How the LLM service reads a fenced answer, and the re-ask one without a query gets. */
export const FENCED_ANSWER = reader(parseFencedSql, 'no ```sql block with a query', 'Your answer has no query. Write the query in one ```sql code block.');

/** How it reads a plain answer. */
export const PLAIN_ANSWER = reader(parsePlainSql, 'no line opens a query', 'Your answer has no query. Write only the SQL query, starting with SELECT.');
