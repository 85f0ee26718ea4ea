import type { WorkflowHandle } from '@temporalio/client';
import { defaultPayloadConverter } from '@temporalio/common';
import type { temporal } from '@temporalio/proto';

/** One activity of a workflow run, as its history records it. */
export interface ActivityRecord {
  name: string;
  summary: string;
  input: unknown;
  /** Attempts started (a retry after a crash or timeout shows as 2 or more). */
  attempt: number;
  /** The worker that started the last attempt (`pid@host` unless the worker was named). */
  identity: string;
  result: unknown;
}

type Payload = temporal.api.common.v1.IPayload;

function decode(payload: Payload | null | undefined): unknown {
  return payload ? defaultPayloadConverter.fromPayload(payload as never) : undefined;
}

/** Every activity the run scheduled, in order, with its input, last attempt and result. */
export async function activityRecords(handle: WorkflowHandle): Promise<ActivityRecord[]> {
  const events = (await handle.fetchHistory()).events ?? [];
  const byScheduledId = new Map<string, ActivityRecord>();
  const records: ActivityRecord[] = [];
  for (const event of events) {
    const id = String(event.eventId);
    const scheduled = event.activityTaskScheduledEventAttributes;
    if (scheduled) {
      const record: ActivityRecord = {
        name: scheduled.activityType?.name ?? '',
        summary: String(decode(event.userMetadata?.summary) ?? ''),
        input: decode(scheduled.input?.payloads?.[0]),
        attempt: 0,
        identity: '',
        result: undefined,
      };
      byScheduledId.set(id, record);
      records.push(record);
    }
    const started = event.activityTaskStartedEventAttributes;
    if (started) Object.assign(byScheduledId.get(String(started.scheduledEventId))!, { attempt: started.attempt ?? 1, identity: started.identity ?? '' });
    const completed = event.activityTaskCompletedEventAttributes;
    if (completed) byScheduledId.get(String(completed.scheduledEventId))!.result = decode(completed.result?.payloads?.[0]);
  }
  return records;
}
