import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { makeTestCertificates } from './test-certificates';

export interface SeenRequest {
  path: string;
  authorization: string;
  userAgent: string;
}

export interface GrpcRefuser {
  /** `127.0.0.1:PORT` */
  address: string;
  /** The CA file that signed its certificate (TEMPORAL_TLS_CA). */
  ca: string;
  seen: SeenRequest[];
  close(): Promise<void>;
}

/**
 * A TLS gRPC endpoint that records who called with which credentials and refuses every call
 * (UNAUTHENTICATED, trailers only), as a server does with an API key it does not know. Shows what
 * the Temporal connections send; the dev server cannot, it ignores API keys.
 */
export async function startGrpcRefuser(): Promise<GrpcRefuser> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'decodex-grpc-'));
  makeTestCertificates(dir);
  const seen: SeenRequest[] = [];
  const sessions = new Set<http2.ServerHttp2Session>();
  const server = http2.createSecureServer({
    key: readFileSync(path.join(dir, 'server.key')),
    cert: readFileSync(path.join(dir, 'server.pem')),
    ALPNProtocols: ['h2'],
  });
  server.on('session', (session) => {
    sessions.add(session);
    session.on('close', () => sessions.delete(session));
  });
  server.on('stream', (stream, headers) => {
    seen.push({ path: String(headers[':path']), authorization: String(headers.authorization ?? ''), userAgent: String(headers['user-agent'] ?? '') });
    stream.respond(
      { ':status': 200, 'content-type': 'application/grpc', 'grpc-status': '16', 'grpc-message': 'refused by the test endpoint' },
      { endStream: true },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    address: `127.0.0.1:${(server.address() as AddressInfo).port}`,
    ca: path.join(dir, 'ca.pem'),
    seen,
    async close() {
      for (const s of sessions) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
