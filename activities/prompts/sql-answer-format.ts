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
 */
export type SqlAnswer = { sql: string; reasoning: string };

const ANSWER_SENTENCE = /Answer with only a JSON object with two keys: "reasoning" \((.*?)\) and "sql" \((.*?)\)\./;

/** True when the template's answer is a query (`{sql, reasoning}`): the formats apply to it. */
export function writesSql(schema: JsonSchema): boolean {
  const keys = Object.keys(schema.properties ?? {});
  return keys.length === 2 && keys.includes('sql') && keys.includes('reasoning');
}

/** The system message and schema of a SQL-writing prompt in `format`; `schema` undefined means free text. */
export function inSqlFormat(messages: ChatMessage[], schema: JsonSchema, format: SqlAnswerFormat): { messages: ChatMessage[]; schema?: JsonSchema } {
  if (format === 'json') return { messages, schema };
  if (format === 'json-reasoning-first') {
    const { sql, reasoning } = schema.properties as Record<string, JsonSchema>;
    return { messages, schema: { ...schema, properties: { reasoning, sql }, required: ['reasoning', 'sql'] } };
  }
  return { messages: messages.map((m) => (m.role === 'system' ? { ...m, content: fencedInstruction(m.content) } : m)) };
}

function fencedInstruction(system: string): string {
  const match = ANSWER_SENTENCE.exec(system);
  if (!match) throw new Error('a SQL-writing prompt must end its instructions with the JSON answer sentence (see sql-answer-format.ts)');
  const query = match[2].replace(/, as one string$/, '');
  const sentence = `Answer in two parts: first your reasoning (${match[1]}) as plain text, then ${query} in one \`\`\`sql code block, and nothing after the block.`;
  return system.replace(ANSWER_SENTENCE, sentence);
}

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

/** How the LLM service reads a fenced answer, and the re-ask one without a query gets. */
export const FENCED_ANSWER = {
  parse: (text: string) => {
    const answer = parseFencedSql(text);
    return answer ? { ok: true as const, value: answer } : { ok: false as const, problems: ['no ```sql block with a query'] };
  },
  repair: 'Your answer has no query. Write the query in one ```sql code block.',
};
