import type { Finding } from '../../../core/correction/finding';
import type { CheckInput } from './check-input';

const ASKS_FOR_COUNT = /\b(how many|number of|count|total number|amount of)\b/i;
const ASKS_FOR_LIST = /^\s*(list|show|give|name|find|return|display|which|what are|what were|who are|tell me)\b/i;
const SELECTS_ONLY_COUNT = /^\s*select\s+(distinct\s+)?count\s*\([^)]*\)\s+(as\s+\S+\s+)?from\b/i;

/** The question asks for a list but the query returns one count: the model answered a different question. */
export function countForList(input: CheckInput): Finding | null {
  if (!input.execution.ok) return null;
  if (!ASKS_FOR_LIST.test(input.question) || ASKS_FOR_COUNT.test(input.question)) return null;
  if (input.execution.columns.length !== 1 || !SELECTS_ONLY_COUNT.test(input.sql)) return null;
  return { check: 'count-for-list', severity: 'warning', message: 'the question asks for a list of items, but the query returns only a count' };
}
