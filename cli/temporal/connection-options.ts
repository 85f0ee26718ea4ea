import { readFileSync } from 'node:fs';
import type { TemporalConnectionSecurity } from '../../core/temporal-endpoint';
import type { RuntimeConfig, TemporalSecurity } from '../../core/runtime-config';

/** The TLS material and API key of `security`, files read now (on the worker or CLI host), with errors naming the setting. */
export function temporalConnectionSecurity(security: TemporalSecurity): TemporalConnectionSecurity {
  const read = (file: string, setting: string) => {
    try {
      return readFileSync(file);
    } catch (err) {
      throw new Error(`cannot read ${setting}=${file}: ${(err as Error).message}`);
    }
  };
  const out: TemporalConnectionSecurity = {};
  if (security.tls) {
    out.tls = {
      ...(security.certFile && security.keyFile
        ? { clientCertPair: { crt: read(security.certFile, 'TEMPORAL_TLS_CERT'), key: read(security.keyFile, 'TEMPORAL_TLS_KEY') } }
        : {}),
      ...(security.caFile ? { serverRootCACertificate: read(security.caFile, 'TEMPORAL_TLS_CA') } : {}),
      ...(security.serverName ? { serverNameOverride: security.serverName } : {}),
    };
  }
  if (security.apiKey) out.apiKey = security.apiKey;
  return out;
}

/** The configured existing server (TEMPORAL_ADDRESS) with its security, or null for the embedded one. */
export function configuredTemporal(config: RuntimeConfig): ({ address: string; namespace: string } & TemporalConnectionSecurity) | null {
  if (!config.temporalAddress) return null;
  return { address: config.temporalAddress, namespace: config.namespace, ...temporalConnectionSecurity(config.temporalSecurity) };
}
