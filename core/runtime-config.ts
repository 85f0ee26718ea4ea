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
  /** How to reach a secured Temporal (a cluster with mTLS, Temporal Cloud); only with temporalAddress. */
  temporalSecurity: TemporalSecurity;
}

/**
 * TLS and API key of a production Temporal, named as the `temporal` CLI names them, so one
 * environment serves both: TEMPORAL_TLS_CERT / TEMPORAL_TLS_KEY (client certificate and key
 * files, mTLS), TEMPORAL_TLS_CA (the server's root CA file, when the OS does not trust it),
 * TEMPORAL_TLS_SERVER_NAME (SNI override), TEMPORAL_API_KEY (Temporal Cloud API keys), and
 * TEMPORAL_TLS=true|false (TLS without a client certificate; on by default with a certificate
 * or an API key, as Temporal Cloud requires).
 */
export interface TemporalSecurity {
  tls: boolean;
  certFile: string | null;
  keyFile: string | null;
  caFile: string | null;
  serverName: string | null;
  apiKey: string | null;
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
    temporalSecurity: resolveTemporalSecurity(env, cwd),
  };
}

function resolveTemporalSecurity(env: Record<string, string | undefined>, cwd: string): TemporalSecurity {
  const file = (name: string) => (env[name] ? path.resolve(cwd, env[name]) : null);
  const certFile = file('TEMPORAL_TLS_CERT');
  const keyFile = file('TEMPORAL_TLS_KEY');
  const apiKey = env.TEMPORAL_API_KEY || null;
  const given = ['TEMPORAL_TLS', 'TEMPORAL_TLS_CERT', 'TEMPORAL_TLS_KEY', 'TEMPORAL_TLS_CA', 'TEMPORAL_TLS_SERVER_NAME', 'TEMPORAL_API_KEY'].filter(
    (n) => env[n],
  );
  if (given.length && !env.TEMPORAL_ADDRESS) {
    throw new Error(`${given.join(', ')} set without TEMPORAL_ADDRESS: they apply to an existing Temporal server, not the embedded dev server`);
  }
  if (Boolean(certFile) !== Boolean(keyFile)) throw new Error('TEMPORAL_TLS_CERT and TEMPORAL_TLS_KEY go together: a client certificate needs its key');
  let tls = Boolean(certFile || apiKey || env.TEMPORAL_TLS_CA || env.TEMPORAL_TLS_SERVER_NAME);
  if (env.TEMPORAL_TLS) {
    if (!/^(true|false|1|0)$/i.test(env.TEMPORAL_TLS)) throw new Error(`TEMPORAL_TLS must be true or false, got "${env.TEMPORAL_TLS}"`);
    tls = /^(true|1)$/i.test(env.TEMPORAL_TLS);
    if (!tls && (certFile || env.TEMPORAL_TLS_CA || env.TEMPORAL_TLS_SERVER_NAME)) {
      throw new Error('TEMPORAL_TLS=false contradicts TEMPORAL_TLS_CERT / TEMPORAL_TLS_CA / TEMPORAL_TLS_SERVER_NAME');
    }
  }
  return { tls, certFile, keyFile, caFile: file('TEMPORAL_TLS_CA'), serverName: env.TEMPORAL_TLS_SERVER_NAME || null, apiKey };
}

function parsePort(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const port = Number(value);
  if (!Number.isInteger(port) || port <= 0 || port > 65535) throw new Error(`${name} must be a TCP port (1-65535), got "${value}"`);
  return port;
}

/**
 * The Web UI page of one run. The run id is required: the UI answers a workflow id alone with a
 * 400 page. For a job that continues as new, the page of the run the command started (or attached
 * to) links on to the next run.
 */
export function workflowUiLink(config: Pick<RuntimeConfig, 'uiUrl' | 'namespace'>, workflowId: string, runId: string): string {
  const id = encodeURIComponent(workflowId);
  return `${config.uiUrl}/namespaces/${encodeURIComponent(config.namespace)}/workflows/${id}/${encodeURIComponent(runId)}/history`;
}
