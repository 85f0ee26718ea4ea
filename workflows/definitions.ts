import { defineQuery } from '@temporalio/workflow';
import type { TraceEvent } from '../core/answer-question-types';

/**
 * Queries, defined once and imported by both the workflows and the client (this file only
 * depends on `defineQuery`, which is safe outside the workflow sandbox).
 */
export const traceQuery = defineQuery<TraceEvent[]>('trace');
export const progressQuery = defineQuery<{ step: string; done: number; total: number }>('progress');
