import {
  ActivityFailure,
  ApplicationFailure,
  proxyActivities,
  setCurrentDetails,
  setHandler,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type { createDatabaseActivities } from '../activities/database/database-activities';
import type { createGenerationActivities } from '../activities/generation/generation-activities';
import {
  resolveLimits,
  type AnswerQuestionInput,
  type AnswerQuestionResult,
  type Outcome,
  type RunError,
  type TraceEvent,
} from '../core/answer-question-types';
import { OUTCOME, ROUTE, TOKENS } from '../core/search-attributes';
import { queuePrefixOf, taskQueue } from '../core/task-queues';
import { addCall, emptyUsage, totalTokens, type RunUsage } from '../core/usage';
import { progressQuery, traceQuery } from './definitions';

type DatabaseActivities = ReturnType<typeof createDatabaseActivities>;
type GenerationActivities = ReturnType<typeof createGenerationActivities>;

/**
 * The minimal online path: read the schema, let the generator write SQL, run it read-only,
 * return SQL, rows and usage. Each step is an activity with a summary, so the Web UI's event
 * list reads like the pipeline; the `trace` query returns the same steps with timings.
 */
export async function answerQuestion(input: AnswerQuestionInput): Promise<AnswerQuestionResult> {
  const limits = resolveLimits(input.limits);
  const startedAt = Date.now();
  const trace: TraceEvent[] = [];
  let usage: RunUsage = emptyUsage();
  let step = 'starting';
  setHandler(traceQuery, () => trace);
  setHandler(progressQuery, () => ({ step, done: trace.length, total: 3 }));

  const prefix = queuePrefixOf(workflowInfo().taskQueue);
  const database = proxyActivities<DatabaseActivities>({
    taskQueue: taskQueue('online', prefix),
    startToCloseTimeout: limits.sqlTimeoutMs + 30_000,
    retry: { maximumAttempts: 3, nonRetryableErrorTypes: ['DatabaseUnavailable'] },
  });
  const generation = proxyActivities<GenerationActivities>({
    taskQueue: taskQueue('llm', prefix),
    startToCloseTimeout: limits.llmAttemptTimeoutMs,
    retry: {
      maximumAttempts: limits.llmRetry.maximumAttempts,
      initialInterval: limits.llmRetry.initialIntervalMs,
      backoffCoefficient: limits.llmRetry.backoffCoefficient,
    },
  });

  const base = { route: 'direct', question: input.question, database: input.database };
  upsertSearchAttributes([{ key: ROUTE, value: base.route }]);

  async function timed<T>(name: string, summary: string, run: () => Promise<T>, detail?: (r: T) => Record<string, unknown>) {
    step = name;
    setCurrentDetails(`**${name}**: ${summary}`);
    const t0 = Date.now();
    try {
      const result = await run();
      trace.push({ step: name, summary, startedAt: new Date(t0).toISOString(), elapsedMs: Date.now() - t0, ok: true, detail: detail?.(result) });
      return result;
    } catch (err) {
      trace.push({ step: name, summary, startedAt: new Date(t0).toISOString(), elapsedMs: Date.now() - t0, ok: false, detail: { error: failureMessage(err) } });
      throw err;
    }
  }

  function finish(outcome: Outcome, rest: Partial<AnswerQuestionResult>, error?: RunError): AnswerQuestionResult {
    upsertSearchAttributes([
      { key: OUTCOME, value: outcome },
      { key: TOKENS, value: totalTokens(usage) },
    ]);
    setCurrentDetails(`**${outcome}**${error ? `: ${error.message}` : ''}`);
    return { outcome, ...base, sql: null, columns: [], rows: [], truncated: false, usage, trace, ...rest, ...(error ? { error } : {}) };
  }

  function budgetProblem(): RunError | undefined {
    const { budget } = limits;
    if (totalTokens(usage) >= budget.maxTokens) return { kind: 'token_budget', message: `token budget of ${budget.maxTokens} used up` };
    if (usage.llmCalls >= budget.maxLlmCalls) return { kind: 'call_budget', message: `LLM call budget of ${budget.maxLlmCalls} used up` };
    if ((Date.now() - startedAt) / 1000 >= budget.maxSeconds) return { kind: 'time_budget', message: `time budget of ${budget.maxSeconds} s used up` };
    return undefined;
  }

  let description;
  try {
    description = await timed(
      'describeDatabase',
      `read the schema of ${input.database}`,
      () => database.describeDatabase.executeWithOptions({ summary: `read schema of ${input.database}` }, [{ database: input.database }]),
      (d) => ({ tables: d.tableCount, columns: d.columnCount, dialect: d.dialect }),
    );
  } catch (err) {
    return finish('database_error', {}, { kind: failureType(err) ?? 'database', message: failureMessage(err) });
  }

  const exhausted = budgetProblem();
  if (exhausted) return finish('budget_exhausted', {}, exhausted);

  let generated;
  try {
    generated = await timed(
      'generateSql',
      'generator writes SQL from the schema and question',
      () =>
        generation.generateSql.executeWithOptions({ summary: 'generator: question + schema → SQL' }, [
          { question: input.question, evidence: input.evidence, dialect: description.dialect, schemaDdl: description.schemaDdl },
        ]),
      (g) => ({ sql: g.sql, ...g.usage }),
    );
  } catch (err) {
    return finish('llm_error', {}, { kind: failureType(err) ?? 'llm', message: failureMessage(err) });
  }
  usage = addCall(usage, generated.usage);

  const executed = await timed(
    'executeSql',
    'run the SQL read-only on the database',
    () =>
      database.executeSql.executeWithOptions({ summary: `execute read-only (timeout ${limits.sqlTimeoutMs} ms)` }, [
        { database: input.database, sql: generated.sql, timeoutMs: limits.sqlTimeoutMs, maxRows: limits.maxRows },
      ]),
    (e) => (e.ok ? { rows: e.result.rows.length, truncated: e.result.truncated, ms: e.result.elapsedMs } : { error: e.error }),
  );
  if (!executed.ok) return finish('execution_error', { sql: generated.sql }, executed.error);
  const afterBudget = budgetProblem();
  const { columns, rows, truncated } = executed.result;
  // A budget that ran out during the last step still returns the answer it paid for, and says so.
  if (afterBudget && afterBudget.kind === 'time_budget') return finish('budget_exhausted', { sql: generated.sql, columns, rows, truncated }, afterBudget);
  return finish('answered', { sql: generated.sql, columns, rows, truncated });
}

/** The innermost failure's message, so "activity task failed" never hides what went wrong. */
function failureMessage(err: unknown): string {
  let e: unknown = err;
  while (e instanceof ActivityFailure && e.cause) e = e.cause;
  return e instanceof Error ? e.message : String(e);
}

function failureType(err: unknown): string | undefined {
  let e: unknown = err;
  while (e instanceof ActivityFailure && e.cause) e = e.cause;
  return e instanceof ApplicationFailure && e.type ? e.type : undefined;
}
