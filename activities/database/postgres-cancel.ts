import { connect } from 'node:net';

/** The CancelRequest code of PostgreSQL's protocol (1234 << 16 | 5678). */
const CANCEL_REQUEST_CODE = 80877102;

export interface BackendKey {
  processId: number;
  secretKey: number;
}

/**
 * Asks the server to cancel whatever backend `key` names is running (the protocol's
 * CancelRequest, on a connection of its own). Dropping a connection does not stop its backend:
 * a backend that is computing, not sending, notices the client is gone only when it next writes,
 * which for a runaway sort or a statement that turned its own statement_timeout off can be
 * minutes later. The request needs no login and no pool slot; the server answers nothing and
 * closes the connection once it has signalled the backend. Resolves true when the request was
 * delivered, false when the server could not be reached within `timeoutMs`; never rejects.
 */
export function sendCancelRequest(server: { host: string; port: number }, key: BackendKey, timeoutMs = 2000): Promise<boolean> {
  const packet = Buffer.alloc(16);
  packet.writeInt32BE(16, 0);
  packet.writeInt32BE(CANCEL_REQUEST_CODE, 4);
  packet.writeInt32BE(key.processId, 8);
  packet.writeInt32BE(key.secretKey, 12);
  return new Promise((resolve) => {
    // As node-postgres connects: a host that is a directory is the server's Unix socket directory.
    const socket = server.host.startsWith('/') ? connect(`${server.host}/.s.PGSQL.${server.port}`) : connect(server.port, server.host);
    let delivered = false;
    const done = (ok: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(ok);
    };
    const timer = setTimeout(() => done(false), timeoutMs);
    socket.once('connect', () => socket.end(packet, () => (delivered = true)));
    socket.once('error', () => done(false));
    socket.once('close', () => done(delivered));
  });
}

/** The backend of a node-postgres client, from the BackendKeyData message it received at startup. */
export function backendKeyOf(client: object): BackendKey | null {
  const { processID, secretKey } = client as { processID?: unknown; secretKey?: unknown };
  return typeof processID === 'number' && typeof secretKey === 'number' ? { processId: processID, secretKey } : null;
}
