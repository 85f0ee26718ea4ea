import { resolveRuntimeConfig } from '../core/runtime-config';
import { temporalConnectionSecurity } from './temporal/connection-options';
import type { TemporalConnectionSecurity } from '../core/temporal-endpoint';

/** What `DecodexClient.connect` takes; every option left out is read from the environment as the CLI reads it. */
export interface DecodexClientOptions extends TemporalConnectionSecurity {
  /** TEMPORAL_ADDRESS, else the embedded server's address (127.0.0.1:DECODEX_TEMPORAL_PORT, 7233). */
  address?: string;
  /** TEMPORAL_NAMESPACE, else `default`. */
  namespace?: string;
  /** DECODEX_QUEUE_PREFIX: the workers' prefix; a client without it starts runs no worker polls. */
  queuePrefix?: string;
  /** Refuse a SQLite path that names no SQLite file on this machine (default true). */
  checkDatabaseFiles?: boolean;
  /** Told when a run's result is waited for and the server stopped answering (the wait goes on; cli/outlast-server-outage.ts). */
  onServerOutage?: (error: string) => void;
}

export type ResolvedClientOptions = Required<Pick<DecodexClientOptions, 'address' | 'namespace' | 'queuePrefix' | 'checkDatabaseFiles'>> &
  TemporalConnectionSecurity;

/**
 * The client's connection, defaulted from `env` through the CLI's own reading of it
 * (core/runtime-config.ts), so a service and `decodex ask` on the same host reach the same
 * server, namespace and task queues: the README's example once hung for ever because the client
 * ignored DECODEX_QUEUE_PREFIX and started runs on queues no worker polled. TLS and the API key
 * come from TEMPORAL_TLS_* / TEMPORAL_API_KEY unless given.
 */
export function resolveClientOptions(
  options: DecodexClientOptions,
  env: Record<string, string | undefined> = process.env,
  cwd = process.cwd(),
): ResolvedClientOptions {
  const config = resolveRuntimeConfig(env, cwd);
  const security = options.tls !== undefined || options.apiKey !== undefined ? options : temporalConnectionSecurity(config.temporalSecurity);
  return {
    address: options.address ?? config.temporalAddress ?? `127.0.0.1:${config.embeddedPort}`,
    namespace: options.namespace ?? config.namespace,
    queuePrefix: options.queuePrefix ?? config.queuePrefix,
    checkDatabaseFiles: options.checkDatabaseFiles ?? true,
    ...(security.tls !== undefined ? { tls: security.tls } : {}),
    ...(security.apiKey !== undefined ? { apiKey: security.apiKey } : {}),
  };
}
