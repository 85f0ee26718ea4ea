import { defineQuery } from '@temporalio/workflow';
import type { TraceEvent } from '../core/answer-question-types';
import type { DagReport } from '../core/dag/dag-report';

/**
 * Queries, defined once and imported by both the workflows and the client (this file only
 * depends on `defineQuery`, which is safe outside the workflow sandbox).
 */
export const traceQuery = defineQuery<TraceEvent[]>('trace');
export const progressQuery = defineQuery<{ step: string; done: number; total: number }>('progress');

/** The complex route's live sub-question DAG: every revision, each node's state, SQL, rows; null before decomposition. */
export const dagQuery = defineQuery<DagReport | null>('dag');
