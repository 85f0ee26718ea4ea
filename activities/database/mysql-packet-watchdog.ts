import net from 'node:net';
import { PacketFraming } from './mysql-packet-framing';

/**
 * The socket mysql2 reads a server's replies from, with a watchdog in front of mysql2's packet
 * parser. That parser holds a whole logical packet (one row) in memory before the row reaches
 * any code that could count it, and assembles a row of several 16 MB packets by concatenating
 * them (twice the row): one 1 GiB row took the worker from 89 MB to 2.2 GB. Here each chunk is
 * framed first (PacketFraming); the first header that takes a logical packet past the bound stops
 * everything: the chunk and all later ones are dropped, reading pauses (the server's sends back
 * up on its side), and `onOversize` fails the statement on this connection (mysql-stream.ts: KILL
 * QUERY, then the connection is destroyed). With no statement listening the socket is destroyed.
 *
 * mysql2 reads its socket through 'data' events, so the watchdog sits in `emit`.
 */
export class PacketWatchdogSocket extends net.Socket {
  private readonly framing: PacketFraming;
  /** The bytes announced for the logical packet that passed the bound, once one did. */
  oversized: number | null = null;
  /** Fails the statement running on this connection; set by streamRows while it runs one. */
  onOversize: ((bytes: number) => void) | null = null;

  constructor(readonly maxLogicalPacketBytes: number) {
    super();
    this.framing = new PacketFraming(maxLogicalPacketBytes);
  }

  override emit(event: string | symbol, ...args: unknown[]): boolean {
    if (event !== 'data') return super.emit(event, ...(args as []));
    if (this.oversized !== null) return false;
    const over = this.framing.feed(args[0] as Uint8Array);
    if (over === null) return super.emit(event, ...(args as []));
    this.oversized = over;
    this.pause();
    if (this.onOversize) this.onOversize(over);
    else this.destroy();
    return false;
  }
}

/** What mysql2 passes to a `stream` factory (lib/base/connection.js). */
interface StreamFactoryOptions {
  config: { host?: string; port?: number; socketPath?: string; enableKeepAlive?: boolean; keepAliveInitialDelay?: number };
}

/**
 * mysql2's `stream` option: a new PacketWatchdogSocket for each connection, connected as mysql2
 * connects its own (TCP_NODELAY, keep-alive when enabled). The framing reads the plain protocol:
 * the connection must use neither TLS nor compression (mysql-connection-url.ts sets neither).
 */
export function packetWatchdogStream(maxLogicalPacketBytes: number): (options: StreamFactoryOptions) => PacketWatchdogSocket {
  return ({ config }) => {
    const socket = new PacketWatchdogSocket(maxLogicalPacketBytes);
    if (config.socketPath) return socket.connect(config.socketPath);
    socket.connect(config.port ?? 3306, config.host ?? 'localhost');
    socket.setNoDelay(true);
    if (config.enableKeepAlive) socket.once('connect', () => socket.setKeepAlive(true, config.keepAliveInitialDelay));
    return socket;
  };
}

/** The watchdog of a mysql2 connection, when it was opened with packetWatchdogStream. */
export function packetWatchdogOf(connection: object): PacketWatchdogSocket | null {
  const stream = (connection as { stream?: unknown }).stream;
  return stream instanceof PacketWatchdogSocket ? stream : null;
}
