import { isGrpcServiceError, ServiceError } from '@temporalio/client';

/** How long a run's result is waited for while the Temporal server does not answer (a restart, a failover). */
export const SERVER_OUTAGE_TOLERANCE_MS = 10 * 60_000;

/** gRPC's UNAVAILABLE and DEADLINE_EXCEEDED: "the server is not there right now", not "the request is wrong". */
const UNREACHABLE = new Set<number>([14, 4]);

/** Whether `err` (from a Temporal client call) says only that the server could not be reached. */
export function isServerUnreachable(err: unknown): boolean {
  const grpc = err instanceof ServiceError ? err.cause : err;
  return isGrpcServiceError(grpc) && UNREACHABLE.has(grpc.code);
}

/** In a word or two, as an operator reads it: the SDK's wrapper says only what failed, the gRPC details hold a stack of errors. */
function outageReason(err: unknown): string {
  const grpc = err instanceof ServiceError ? err.cause : err;
  if (!isGrpcServiceError(grpc)) return 'unreachable';
  if (grpc.code === 4) return 'no answer in time';
  return /ECONNREFUSED/.test(grpc.details) ? 'connection refused' : 'unavailable';
}

export interface OutageOptions {
  /** A cheap call that succeeds once the server answers again (the client's GetSystemInfo). */
  probe: () => Promise<unknown>;
  /** Told once per outage, when it starts, why (the caller may say it is waiting). */
  onOutage?: (reason: string) => void;
  toleranceMs?: number;
  retryMs?: number;
}

/**
 * `wait()` (a run's result: a long poll of its history), again once the server answers, whenever
 * it failed only because the server was unreachable; an outage longer than `toleranceMs` (ten
 * minutes) fails as before. The SDK's own retries give up after about 20 s, while the run survives
 * a server restart (its history is on disk): without this, `decodex ask` and `DecodexClient.ask`
 * failed with "Failed to get Workflow execution history" for a run that then completed. Any other
 * error is thrown at once.
 */
export async function outlastServerOutage<T>(wait: () => Promise<T>, options: OutageOptions): Promise<T> {
  const toleranceMs = options.toleranceMs ?? SERVER_OUTAGE_TOLERANCE_MS;
  const retryMs = options.retryMs ?? 1_000;
  for (;;) {
    try {
      return await wait();
    } catch (err) {
      if (!isServerUnreachable(err)) throw err;
      options.onOutage?.(outageReason(err));
      const downSince = Date.now();
      // Until the server answers: each outage is measured on its own.
      while (
        !(await options.probe().then(
          () => true,
          () => false,
        ))
      ) {
        if (Date.now() - downSince > toleranceMs) throw err;
        await new Promise((resolve) => setTimeout(resolve, retryMs));
      }
    }
  }
}
