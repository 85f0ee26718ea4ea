import path from 'node:path';

/**
 * Where decodex keeps its state and how it reaches Temporal, from environment variables.
 * Pure: callers pass `process.env` and the working directory, tests pass their own.
 */
export interface RuntimeConfig {
  /** Data directory: Temporal's SQLite file, artifacts, LLM cache, vector indices. */
  home: string;
  /** An existing Temporal server, or null to start the embedded dev server. */
  temporalAddress: string | null;
  namespace: string;
  /** Explicit Temporal CLI path (DECODEX_TEMPORAL_CLI), else found on PATH or in the project's tools. */
  temporalCli: string | null;
  /** Ports of the embedded dev server. */
  embeddedPort: number;
  uiPort: number;
  /** Base URL of the Web UI, for links printed by the CLI. */
  uiUrl: string;
  /** Prefix of the task queue names (see core/task-queues.ts). */
  queuePrefix: string;
  /** Optional JSON config file (per-role LLM settings, ...). */
  configFile: string | null;
}

export function resolveRuntimeConfig(env: Record<string, string | undefined>, cwd: string): RuntimeConfig {
  const home = path.resolve(cwd, env.DECODEX_HOME ?? '.decodex');
  const embeddedPort = parsePort(env.DECODEX_TEMPORAL_PORT, 7233, 'DECODEX_TEMPORAL_PORT');
  const uiPort = parsePort(env.DECODEX_UI_PORT, 8233, 'DECODEX_UI_PORT');
  return {
    home,
    temporalAddress: env.TEMPORAL_ADDRESS || null,
    namespace: env.TEMPORAL_NAMESPACE || 'default',
    temporalCli: env.DECODEX_TEMPORAL_CLI || null,
    embeddedPort,
    uiPort,
    uiUrl: (env.DECODEX_UI_URL || `http://localhost:${uiPort}`).replace(/\/$/, ''),
    queuePrefix: env.DECODEX_QUEUE_PREFIX ?? '',
    configFile: env.DECODEX_CONFIG ? path.resolve(cwd, env.DECODEX_CONFIG) : null,
  };
}

function parsePort(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const port = Number(value);
  if (!Number.isInteger(port) || port <= 0 || port > 65535) throw new Error(`${name} must be a TCP port (1-65535), got "${value}"`);
  return port;
}

/** The Web UI page of one run. */
export function workflowUiLink(config: Pick<RuntimeConfig, 'uiUrl' | 'namespace'>, workflowId: string, runId?: string): string {
  const id = encodeURIComponent(workflowId);
  return `${config.uiUrl}/namespaces/${encodeURIComponent(config.namespace)}/workflows/${id}${runId ? `/${runId}` : ''}/history`;
}
