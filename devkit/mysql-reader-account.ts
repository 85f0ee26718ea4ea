import mysql from 'mysql2/promise';

export interface ReaderAccount {
  user: string;
  password: string;
  /** The database it may read, and the only one. */
  database: string;
  /**
   * SHOW VIEW besides SELECT (default true): it lets decodex read view definitions when it opens
   * the database, to find views that would run stored functions with their definer's rights
   * (activities/database/mysql-unsafe-views.ts); without it every such view by another account
   * is refused unread.
   */
  showView?: boolean;
}

/**
 * The default statement time limit of a reader session on MariaDB, in seconds. decodex sets its
 * own limit for each statement (a little past the statement's timeout), and a session may raise
 * this one, so it bounds what decodex does not run: a person or tool using the same account.
 * Equal to decodex's limit for its own introspection queries (120 s).
 */
export const READER_MAX_STATEMENT_SECONDS = 120;

/**
 * Creates the account decodex reads a MySQL/MariaDB database with, replacing one of the same
 * name: SELECT (and SHOW VIEW) on that database and nothing else: no FILE, no EXECUTE, no
 * privilege on other databases, so neither files of the server, nor stored routines, nor other
 * data are within its reach whatever SQL it runs. On MariaDB the account also gets a default
 * MAX_STATEMENT_TIME (MySQL has no per-account statement limit). The account can connect from
 * any host ('%'); the password is the caller's. Returns the account's URL for `serverUrl`'s server.
 */
export async function createReaderAccount(serverUrl: string, account: ReaderAccount): Promise<string> {
  const admin = await mysql.createConnection(serverUrl);
  try {
    const [[{ version }]] = await admin.query<mysql.RowDataPacket[]>('SELECT VERSION() AS version');
    const limits = /mariadb/i.test(version) ? ` WITH MAX_STATEMENT_TIME ${READER_MAX_STATEMENT_SECONDS}` : '';
    const privileges = account.showView === false ? 'SELECT' : 'SELECT, SHOW VIEW';
    await admin.query('DROP USER IF EXISTS ?@?', [account.user, '%']);
    await admin.query(`CREATE USER ?@? IDENTIFIED BY ?${limits}`, [account.user, '%', account.password]);
    await admin.query(`GRANT ${privileges} ON ${admin.escapeId(account.database)}.* TO ?@?`, [account.user, '%']);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  // The URL setters percent-encode what needs it.
  url.username = account.user;
  url.password = account.password;
  url.pathname = `/${account.database}`;
  return url.toString();
}
