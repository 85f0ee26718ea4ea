import { randomUUID } from 'node:crypto';
import { Client, Connection, type WorkflowHandle } from '@temporalio/client';
import { TypedSearchAttributes } from '@temporalio/common';
import type { AnswerQuestionInput, AnswerQuestionResult } from '../core/answer-question-types';
import { resolveLimits } from '../core/question-limits';
import type { TraceEvent } from '../core/run-trace';
import { checkResultByteLimits } from '../core/result-bytes';
import { awaitAnswer } from '../core/unanswered-run';
import { databaseLabel } from '../core/database-label';
import { databaseReferenceOrFail } from './database-reference';
import { DATABASE, PRESET } from '../core/search-attributes';
import { formatOverrides, resolvePipelineConfig } from '../core/pipeline/pipeline-config';
import { taskQueue } from '../core/task-queues';
import { dagQuery, progressQuery, traceQuery } from '../workflows/queries';
import type { DagReport } from '../core/dag/dag-report';
import type { answerQuestion } from '../workflows/answer-question';
import { preparedDatabaseId } from '../core/preparation/database-id';
import type { PrepareDatabaseInput, PrepareDatabaseResult } from '../core/preparation/preparation-types';
import type { prepareDatabase } from '../workflows/prepare-database';
import { resolveClientOptions, type DecodexClientOptions } from './client-options';
import { outlastServerOutage } from './outlast-server-outage';

export type { DecodexClientOptions } from './client-options';

export interface StartedPreparation {
  workflowId: string;
  runId: string;
  handle: WorkflowHandle<typeof prepareDatabase>;
}

export interface StartedQuestion {
  workflowId: string;
  runId: string;
  handle: WorkflowHandle<typeof answerQuestion>;
}

/**
 * The typed client services import to ask decodex questions:
 *
 *   const decodex = await DecodexClient.connect(); // TEMPORAL_ADDRESS, DECODEX_QUEUE_PREFIX, ... as the CLI reads them
 *   const { result } = await decodex.ask({ question, database: 'mysql://ro@db/shop' });
 *
 * `database` is normalised once here (cli/database-reference.ts); a URL holding a password is
 * refused, since workflow inputs are kept in Temporal's history: the worker holds credentials.
 */
export class DecodexClient {
  private constructor(
    readonly client: Client,
    private readonly connection: Connection,
    private readonly queuePrefix: string,
    private readonly checkDatabaseFiles: boolean,
    private readonly onServerOutage?: (error: string) => void,
  ) {}

  /**
   * Connects as the CLI does: every option left out comes from the same environment
   * (TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE, DECODEX_QUEUE_PREFIX, TEMPORAL_TLS_*, TEMPORAL_API_KEY;
   * cli/client-options.ts). `checkDatabaseFiles` (default true) refuses a SQLite path that names no
   * SQLite file on this machine before a run starts; set it false when the workers read files this
   * process cannot see.
   */
  static async connect(options: DecodexClientOptions = {}): Promise<DecodexClient> {
    const resolved = resolveClientOptions(options);
    const connection = await Connection.connect({ address: resolved.address, tls: resolved.tls, apiKey: resolved.apiKey });
    const client = new Client({ connection, namespace: resolved.namespace });
    return new DecodexClient(client, connection, resolved.queuePrefix, resolved.checkDatabaseFiles, options.onServerOutage);
  }

  /** Starts a question workflow and returns at once; the run is visible in the Web UI. */
  async startQuestion(questionInput: AnswerQuestionInput, options: { workflowId?: string } = {}): Promise<StartedQuestion> {
    validateQuestionInput(questionInput);
    const input = { ...questionInput, database: this.databaseReference(questionInput.database) };
    const label = databaseLabel(input.database);
    const workflowId = options.workflowId ?? `answer-${label}-${randomUUID()}`;
    const pairs = [{ key: DATABASE, value: label }];
    if (input.preset) pairs.push({ key: PRESET, value: input.preset });
    const handle = await this.client.workflow.start<typeof answerQuestion>('answerQuestion', {
      taskQueue: taskQueue('online', this.queuePrefix),
      workflowId,
      args: [input],
      typedSearchAttributes: new TypedSearchAttributes(pairs),
      staticSummary: input.question.slice(0, 200),
      staticDetails: [
        `**database**: ${input.database}`,
        input.evidence ? `**evidence**: ${input.evidence}` : '',
        input.preset ? `**preset**: ${input.preset}` : '',
        input.ablations?.length ? `**ablations**: ${input.ablations.join(', ')}` : '',
        input.pipeline ? `**settings**: ${formatOverrides(input.pipeline).join(', ')}` : '',
      ]
        .filter(Boolean)
        .join('\n'),
    });
    return { workflowId, runId: handle.firstExecutionRunId, handle };
  }

  /** Starts a question and waits for its answer. */
  async ask(input: AnswerQuestionInput, options: { workflowId?: string } = {}): Promise<StartedQuestion & { result: AnswerQuestionResult }> {
    const started = await this.startQuestion(input, options);
    return { ...started, result: await this.answer(started.workflowId) };
  }

  /**
   * The result of a question run, answered or not, once it ended. Use it rather than
   * `handle.result()`: an unanswered run ends as Failed (so the Web UI's list shows it), its result
   * in the failure (core/unanswered-run.ts), which this unwraps.
   */
  answer(workflowId: string): Promise<AnswerQuestionResult> {
    return awaitAnswer(this.result<AnswerQuestionResult>(workflowId));
  }

  /**
   * The result of any decodex run once it ended (across continue-as-new), waited for through a
   * Temporal server outage of up to ten minutes (a restart): the run survives it, and so does the
   * wait (cli/outlast-server-outage.ts). A question's is better read with `answer`.
   */
  result<T>(workflowId: string): Promise<T> {
    const handle = this.client.workflow.getHandle(workflowId);
    return outlastServerOutage(() => handle.result() as Promise<T>, {
      probe: () => this.client.workflowService.getSystemInfo({}),
      onOutage: this.onServerOutage,
    });
  }

  /**
   * Starts the offline preparation of a database (profiles, indices, disambiguation notes) and
   * returns at once. One preparation per database runs at a time: starting one while another
   * runs attaches to it (same workflow id, `prepare-<database id>`).
   */
  async startPreparation(preparationInput: PrepareDatabaseInput, options: { workflowId?: string } = {}): Promise<StartedPreparation> {
    if (typeof preparationInput.database !== 'string')
      throw new Error('database must be a SQLite file path, a mysql:// or postgres:// URL or a connection name');
    const input = { ...preparationInput, database: this.databaseReference(preparationInput.database) };
    const label = databaseLabel(input.database);
    const handle = await this.client.workflow.start<typeof prepareDatabase>('prepareDatabase', {
      taskQueue: taskQueue('offline', this.queuePrefix),
      workflowId: options.workflowId ?? `prepare-${preparedDatabaseId(input.database)}`,
      workflowIdConflictPolicy: 'USE_EXISTING',
      args: [input],
      typedSearchAttributes: new TypedSearchAttributes([{ key: DATABASE, value: label }]),
      staticSummary: `prepare ${label}`,
      staticDetails: [`**database**: ${input.database}`, input.documentation ? `**documentation**: ${input.documentation}` : '', input.force ? '**force**' : '']
        .filter(Boolean)
        .join('\n'),
    });
    return { workflowId: handle.workflowId, runId: handle.firstExecutionRunId, handle };
  }

  /** Prepares a database and waits for the result (a no-op when it is prepared and unchanged). */
  async prepare(input: PrepareDatabaseInput, options: { workflowId?: string } = {}): Promise<StartedPreparation & { result: PrepareDatabaseResult }> {
    const started = await this.startPreparation(input, options);
    return { ...started, result: await this.result<PrepareDatabaseResult>(started.workflowId) };
  }

  /** The steps a run took so far (works while it runs and after it ended). */
  trace(workflowId: string): Promise<TraceEvent[]> {
    return this.client.workflow.getHandle(workflowId).query(traceQuery);
  }

  progress(workflowId: string) {
    return this.client.workflow.getHandle(workflowId).query(progressQuery);
  }

  /** The live sub-question DAG of a question on the complex route (null before decomposition). */
  dag(workflowId: string): Promise<DagReport | null> {
    return this.client.workflow.getHandle(workflowId).query(dagQuery);
  }

  /** The reference a run carries, or a refusal before anything starts (a password, a bad URL, no SQLite file). */
  private databaseReference(spec: string): string {
    return databaseReferenceOrFail(spec, this.checkDatabaseFiles ? (reference) => reference : undefined);
  }

  async close(): Promise<void> {
    await this.connection.close();
  }
}

function validateQuestionInput(input: AnswerQuestionInput): void {
  if (typeof input.question !== 'string' || !input.question.trim()) throw new Error('question must be a non-empty string');
  if (typeof input.database !== 'string') throw new Error('database must be a SQLite file path, a mysql:// or postgres:// URL or a connection name');
  // An unknown preset or ablation is refused here, before a run starts, naming the valid ones.
  resolvePipelineConfig(input.preset, input.ablations, input.pipeline);
  checkResultByteLimits(resolveLimits(input.limits));
}
