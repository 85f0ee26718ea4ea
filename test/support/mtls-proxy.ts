import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { makeTestCertificates } from './test-certificates';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';

export interface MtlsProxy {
  /** `127.0.0.1:PORT`, what TEMPORAL_ADDRESS would be. */
  address: string;
  /** PEM files: the CA that signed both sides, and the client's certificate and key. */
  files: { ca: string; clientCert: string; clientKey: string };
  /** Connections whose client certificate the proxy accepted / refused. */
  accepted(): number;
  refused(): number;
  close(): Promise<void>;
}

/**
 * A production-shaped front for the test Temporal server: TLS that demands a client
 * certificate signed by its CA (mTLS, as a secured cluster does), HTTP/2 offered by ALPN, bytes
 * passed on to `target` unchanged. The dev server itself speaks no TLS.
 */
export async function startMtlsProxy(target: string): Promise<MtlsProxy> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'decodex-mtls-'));
  makeTestCertificates(dir);
  const [host, port] = [target.slice(0, target.lastIndexOf(':')), Number(target.slice(target.lastIndexOf(':') + 1))];
  const file = (name: string) => path.join(dir, name);
  let accepted = 0;
  let refused = 0;
  const sockets = new Set<net.Socket>();
  const server = tls.createServer(
    {
      key: readFileSync(file('server.key')),
      cert: readFileSync(file('server.pem')),
      ca: readFileSync(file('ca.pem')),
      requestCert: true,
      rejectUnauthorized: true,
      ALPNProtocols: ['h2'],
    },
    (client) => {
      accepted++;
      const upstream = net.connect(port, host);
      for (const s of [client, upstream]) {
        sockets.add(s);
        s.on('close', () => sockets.delete(s));
        s.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream).pipe(client);
    },
  );
  server.on('tlsClientError', () => refused++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port: listening } = server.address() as net.AddressInfo;
  return {
    address: `127.0.0.1:${listening}`,
    files: { ca: file('ca.pem'), clientCert: file('client.pem'), clientKey: file('client.key') },
    accepted: () => accepted,
    refused: () => refused,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
