import type { AddressInfo, Server } from 'node:net';
import mysql from 'mysql2';

/** What mysql2's server-side connection offers (its typings describe the client side only). */
interface ServerConnection {
  stream: { write(bytes: Buffer): boolean; destroy(): void; on(event: 'error', listener: () => void): void };
  sequenceId: number;
  serverHandshake(args: Record<string, unknown>): void;
  writeColumns(columns: Record<string, unknown>[]): void;
  writeTextRow(values: unknown[]): void;
  writeEof(warnings?: number, statusFlags?: number): void;
  writeOk(args?: Record<string, unknown>): void;
  writeError(args: { message: string; code: number }): void;
  on(event: 'query' | 'stmt_prepare', listener: (sql: string) => void): void;
  on(event: 'packet', listener: (packet: unknown, known: boolean, command: number) => void): void;
  on(event: 'error', listener: () => void): void;
}

/** How the server answers a statement whose text holds the marker. */
export type HostileReply = (conn: ServerConnection) => void;

const UTF8MB4 = 45;
const VAR_STRING = 0xfd;
const SERVER_STATUS_AUTOCOMMIT = 0x0002;
const SERVER_MORE_RESULTS_EXISTS = 0x0008;
const COM_RESET_CONNECTION = 0x1f;

const column = (name: string) => ({
  catalog: 'def',
  schema: '',
  table: '',
  orgTable: '',
  name,
  orgName: name,
  characterSet: UTF8MB4,
  columnLength: 1024,
  columnType: VAR_STRING,
  flags: 0,
  decimals: 0,
});

/** A result set of text columns. */
function writeRows(conn: ServerConnection, names: string[], rows: string[][], statusFlags = SERVER_STATUS_AUTOCOMMIT): void {
  conn.writeColumns(names.map(column));
  for (const row of rows) conn.writeTextRow(row);
  conn.writeEof(0, statusFlags);
}

/** A raw packet with the connection's next sequence number: what no well-behaved server sends. */
function writeRaw(conn: ServerConnection, header: number[], payload: Buffer): void {
  conn.stream.write(Buffer.concat([Buffer.from([...header, conn.sequenceId]), payload]));
  conn.sequenceId = (conn.sequenceId + 1) % 256;
}

/** Replies a real server never sends, each for a statement naming its marker (`SELECT hostile_ok_packet`). */
export const HOSTILE_REPLIES: Record<string, HostileReply> = {
  /** An OK packet: what SELECT ... INTO answers. */
  hostile_ok_packet: (conn) => conn.writeOk(),
  /** Two result sets, as a stored procedure's CALL would send. */
  hostile_two_results: (conn) => {
    writeRows(conn, ['a'], [['1']], SERVER_STATUS_AUTOCOMMIT | SERVER_MORE_RESULTS_EXISTS);
    writeRows(conn, ['b', 'c'], [['2', '3']]);
  },
  /** The socket closes in the middle of the rows. */
  hostile_drop: (conn) => {
    conn.writeColumns([column('a')]);
    conn.writeTextRow(['1']);
    setTimeout(() => conn.stream.destroy(), 20);
  },
  /** An error packet in the middle of the rows. */
  hostile_error_mid_rows: (conn) => {
    conn.writeColumns([column('a')]);
    conn.writeTextRow(['1']);
    conn.writeError({ message: 'hostile error in the middle of the rows', code: 1105 });
  },
  /** A whole result, then an error packet nobody asked for. */
  hostile_unsolicited: (conn) => {
    writeRows(conn, ['a'], [['1']]);
    setTimeout(() => conn.writeError({ message: 'an unsolicited error', code: 1105 }), 20);
  },
  /** A row packet announcing 16 MB, and a few bytes of it. */
  hostile_huge_header: (conn) => {
    conn.writeColumns([column('a')]);
    writeRaw(conn, [0xff, 0xff, 0xff], Buffer.alloc(100, 0x78));
  },
  /** A row packet whose length-coded cell runs past the packet's end (mysql2 reads on into the next packet). */
  hostile_malformed_row: (conn) => {
    conn.writeColumns([column('a')]);
    writeRaw(conn, [3, 0, 0], Buffer.from([0xfc, 0xff, 0xff]));
    conn.writeEof(0, SERVER_STATUS_AUTOCOMMIT);
  },
  /** Bytes that are no MySQL reply at all. */
  hostile_garbage: (conn) => {
    const sequence = conn.sequenceId;
    conn.stream.write(Buffer.from([5, 0, 0, sequence, 0x99, 0x98, 0x97, 0x96, 0x95, 1, 0, 0, sequence + 1, 0xfe]));
  },
};

/**
 * A MySQL server that answers what MysqlDatabase asks when it connects and around each
 * statement like MariaDB, and a statement naming a HOSTILE_REPLIES marker with that reply. For
 * tests that nothing a server sends can throw in the worker or leave a statement hanging.
 */
export async function startHostileMysqlServer(): Promise<{ url: string; stop(): Promise<void> }> {
  const sockets: ServerConnection[] = [];
  const server = mysql.createServer((raw) => {
    const conn = raw as unknown as ServerConnection;
    sockets.push(conn);
    conn.on('error', () => {}); // the client hanging up on a hostile reply is expected
    conn.stream.on('error', () => {});
    conn.serverHandshake({
      protocolVersion: 10,
      serverVersion: '10.11.0-MariaDB-hostile',
      connectionId: sockets.length,
      statusFlags: SERVER_STATUS_AUTOCOMMIT,
      characterSet: UTF8MB4,
      capabilityFlags: 0xf7ff,
      authCallback: (_params: unknown, done: (err: null) => void) => {
        done(null); // writes the OK of the login
        conn.sequenceId = 0;
      },
    });
    // Each command's replies count from 1, and the next command comes as 0: mysql2's server side
    // counts on from the last reply instead (and says so on the console), so each reply resets it.
    const reply = (write: () => void) => {
      conn.sequenceId = 1;
      write();
      conn.sequenceId = 0;
    };
    conn.on('packet', (_packet, known, command) => {
      if (!known && command === COM_RESET_CONNECTION) reply(() => conn.writeOk());
    });
    conn.on('query', (sql) => reply(() => answer(conn, sql)));
    // mysql2's server side reports a SET statement as a PREPARE.
    conn.on('stmt_prepare', (sql) => reply(() => answer(conn, sql)));
  });
  // Its net.Server: mysql2's wrapper takes a port only.
  const listener = (server as unknown as { _server: Server })._server;
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', () => resolve()));
  const { port } = listener.address() as AddressInfo;
  return {
    url: `mysql://reader:pw@127.0.0.1:${port}/db`,
    stop: async () => {
      for (const conn of sockets) conn.stream.destroy();
      await new Promise<void>((resolve) => listener.close(() => resolve()));
    },
  };
}

/** MariaDB's answers to what MysqlDatabase asks, and the hostile replies. */
function answer(conn: ServerConnection, sql: string): void {
  const hostile = Object.keys(HOSTILE_REPLIES).find((marker) => sql.includes(marker));
  if (hostile) return HOSTILE_REPLIES[hostile](conn);
  if (/^SELECT VERSION\(\)/i.test(sql)) return writeRows(conn, ['VERSION()', 'sql_mode'], [['10.11.0-MariaDB-hostile', 'STRICT_TRANS_TABLES']]);
  if (/^SHOW SESSION VARIABLES/i.test(sql)) return writeRows(conn, ['Variable_name', 'Value'], []);
  if (/^SELECT CURRENT_USER\(\)/i.test(sql)) return writeRows(conn, ['CURRENT_USER()'], [['reader@%']]);
  if (/^SHOW GRANTS/i.test(sql)) return writeRows(conn, ['Grants for reader@%'], [['GRANT SELECT ON `db`.* TO `reader`@`%`']]);
  if (/information_schema\.VIEWS/i.test(sql)) return writeRows(conn, ['TABLE_SCHEMA', 'TABLE_NAME', 'SECURITY_TYPE', 'DEFINER', 'VIEW_DEFINITION'], []);
  const select = /^SELECT (\w+)$/i.exec(sql.trim());
  if (select) return writeRows(conn, [select[1]], [[select[1]]]);
  conn.writeOk(); // SET, START TRANSACTION READ ONLY, ROLLBACK, KILL QUERY
}
