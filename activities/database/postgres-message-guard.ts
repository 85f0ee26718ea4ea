import type { Duplex } from 'node:stream';

/** Why a connection was dropped by its guard; the run path reports it as QueryOutOfMemory. */
export class MessageTooLarge extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MessageTooLarge';
  }
}

export interface MessageGuard {
  /** A new statement starts: its rows are counted from zero. */
  startStatement(): void;
}

/** A backend message starts with its type (1 byte) and its length (int32, counting itself, not the type). */
const HEADER_BYTES = 5;
const DATA_ROW = 0x44; // 'D'

/**
 * Reads the PostgreSQL message framing of everything the server sends on `stream` before
 * node-postgres sees it, because node-postgres (pg-protocol) buffers each message whole and then
 * turns it into strings: a 600 MB value became 600 MB of buffer, then a string past V8's limit,
 * thrown inside the socket's 'data' handler, which ended the worker. Here the length is known
 * from a message's first five bytes, so the connection is dropped before its body is buffered:
 * - any one message longer than `maxBytes` (no row larger than a whole result's bound can be held);
 * - a statement's rows (DataRow messages) past twice `maxBytes` on the wire: the cursor
 *   (postgres-cursor.ts) bounds them by value after each FETCH, this bounds one FETCH in flight.
 *   Twice, because text on the wire can be larger than its value (bytea as hex).
 * Anything node-postgres throws while it reads a chunk (a malformed message, a string too long)
 * also drops the connection instead of escaping as an uncaught exception. The error reaches the
 * statement through the stream's 'error' event, as a connection failure does.
 *
 * It must see the stream from a message boundary on: it is installed on a connection that is
 * ready for a query (pool 'connect', after the startup exchange and any TLS handshake).
 */
export function guardMessages(stream: Duplex, maxBytes: number): MessageGuard {
  const header = Buffer.alloc(HEADER_BYTES);
  let headerBytes = 0;
  let bodyLeft = 0;
  let rowBytes = 0;
  let tripped = false;

  /** The first problem in `chunk`, or null; advances the framing state past it. */
  const scan = (chunk: Buffer): MessageTooLarge | null => {
    let i = 0;
    while (i < chunk.length) {
      if (bodyLeft > 0) {
        const n = Math.min(bodyLeft, chunk.length - i);
        bodyLeft -= n;
        i += n;
        continue;
      }
      header[headerBytes++] = chunk[i++];
      if (headerBytes < HEADER_BYTES) continue;
      headerBytes = 0;
      const length = header.readUInt32BE(1);
      if (length < 4) return new MessageTooLarge(`the server sent a malformed message (length ${length})`);
      if (length > maxBytes) {
        return new MessageTooLarge(
          `out of memory: the server sent a ${header[0] === DATA_ROW ? 'row' : 'message'} of ${size(length)}, past the ${size(maxBytes)} bound of a result in the worker`,
        );
      }
      if (header[0] === DATA_ROW && (rowBytes += length) > 2 * maxBytes) {
        return new MessageTooLarge(
          `out of memory: the statement's rows passed ${size(2 * maxBytes)} on the wire, twice the ${size(maxBytes)} bound of a result in the worker`,
        );
      }
      bodyLeft = length - 4;
    }
    return null;
  };

  const emit = stream.emit.bind(stream);
  const drop = (err: Error) => {
    tripped = true;
    stream.destroy(err);
    return false;
  };
  stream.emit = (event: string | symbol, ...args: unknown[]): boolean => {
    if (event !== 'data') return emit(event, ...args);
    // After the drop, nothing more is handed on: node-postgres's framing is no longer trusted.
    if (tripped) return false;
    const problem = scan(args[0] as Buffer);
    if (problem) return drop(problem);
    try {
      return emit(event, ...args);
    } catch (err) {
      return drop(err instanceof Error ? err : new Error(String(err)));
    }
  };
  return {
    startStatement: () => {
      rowBytes = 0;
    },
  };
}

function size(bytes: number): string {
  return bytes >= 2 ** 20 ? `${Math.round(bytes / 2 ** 20)} MB` : `${Math.ceil(bytes / 1024)} kB`;
}
