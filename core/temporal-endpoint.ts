import type { TLSConfig } from '@temporalio/common/lib/internal-non-workflow';

/** What both Temporal connections (the client's and the workers' native one) take besides the address. */
export interface TemporalConnectionSecurity {
  tls?: TLSConfig;
  apiKey?: string;
}

/** A Temporal server to connect to, and who started it (the CLI's embedded server, or nobody). */
export interface TemporalEndpoint extends TemporalConnectionSecurity {
  address: string;
  namespace: string;
  /** Set when this process started the server in the foreground; stopping it is then our job. */
  stop?: () => Promise<void>;
  /** Set with `stop`: settles when the foreground server exits, stopped by us or not. */
  exited?: Promise<void>;
  /** Set when this process started the server in the background, where it keeps running. */
  backgroundPid?: number;
}
