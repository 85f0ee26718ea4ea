import { describeWithService } from './describe-with-service';
import { findQdrantBinary } from '../../devkit/qdrant';

/**
 * What a Qdrant test needs: `server`, the shared one global-setup started (or an external one
 * named by DECODEX_TEST_QDRANT_URL), or `binary`, to start a process of its own (the outage
 * test stops and restarts it).
 */
export type QdrantNeed = 'server' | 'binary';

export interface QdrantTestServer {
  /** The shared server's URL. */
  url: string;
  /** The binary to start a private server with ('' when none was found: only `binary` suites rely on it). */
  binary: string;
}

/** Why the need cannot be met here, or null when it can. */
function missingReason(need: QdrantNeed): string | null {
  if (need === 'server') {
    if (process.env.DECODEX_TEST_QDRANT_URL) return null;
    return process.env.DECODEX_TEST_QDRANT_MISSING ?? 'global-setup started no Qdrant server';
  }
  const binary = findQdrantBinary();
  return 'path' in binary ? null : binary.missing;
}

/**
 * `describe` for tests against a real Qdrant. No registry ships the Qdrant server, so a machine
 * without the binary (no QDRANT_BIN, no ../shared/bin/qdrant, none on PATH) cannot run these:
 * see describeWithService for what happens then.
 */
export function describeWithQdrant(title: string, need: QdrantNeed, body: (server: () => QdrantTestServer) => void): void {
  const binary = findQdrantBinary();
  const server = () => ({ url: process.env.DECODEX_TEST_QDRANT_URL ?? '', binary: 'path' in binary ? binary.path : '' });
  describeWithService(title, 'Qdrant', missingReason(need), 'set QDRANT_BIN', () => body(server));
}
