import { READ_ONLY_ACCOUNT_POLICIES, type ReadOnlyAccountPolicy } from './mysql-account-policy';

/** What a database reached over the network (MySQL/MariaDB, PostgreSQL) is opened with. */
export interface ServerDatabaseOptions {
  /** Statements that can run at once. Default 4. */
  connectionLimit?: number;
  /** Time limit for introspection and statistics queries. Default 120 s. */
  internalTimeoutMs?: number;
  /**
   * Bytes of rows one statement may hold in the worker; past it the statement is stopped and
   * fails with QueryOutOfMemory. With `connectionLimit` it bounds the memory all statements
   * hold: 4 x 64 MB by default.
   */
  maxResultBytes?: number;
  /**
   * What to do when the account can write (checked at connection time): `warn` (default: say so
   * once, through `onAccountWarning`) or `require` (refuse to open the database). Worker
   * setting: DECODEX_MYSQL_ACCOUNT, DECODEX_POSTGRES_ACCOUNT.
   */
  readOnlyAccount?: ReadOnlyAccountPolicy;
  /** Where the warning goes; default: the process's stderr. */
  onAccountWarning?: (message: string) => void;
  /**
   * MySQL/MariaDB: bytes of temp disk one statement may write on the server, where the server
   * lets a session say so (mysql-session.ts TEMP_DISK_VARIABLES). Default 256 MB; worker setting
   * DECODEX_MYSQL_TEMP_DISK_MB.
   */
  maxTempDiskBytes?: number;
}

export const DEFAULT_MAX_RESULT_BYTES = 64 * 2 ** 20;
export const DEFAULT_MAX_TEMP_DISK_BYTES = 256 * 2 ** 20;

/** The options' byte bound, checked. */
export function maxResultBytesOf(options: ServerDatabaseOptions): number {
  const bytes = options.maxResultBytes ?? DEFAULT_MAX_RESULT_BYTES;
  if (!(Number.isSafeInteger(bytes) && bytes > 0)) throw new RangeError(`maxResultBytes must be a positive integer, got ${options.maxResultBytes}`);
  return bytes;
}

/** The options' account policy, checked before anything connects. */
export function accountPolicyOf(options: ServerDatabaseOptions): ReadOnlyAccountPolicy {
  const policy = options.readOnlyAccount ?? 'warn';
  if (!READ_ONLY_ACCOUNT_POLICIES.includes(policy)) throw new Error(`readOnlyAccount must be one of ${READ_ONLY_ACCOUNT_POLICIES.join(', ')}, got ${policy}`);
  return policy;
}

export interface AccountCheck {
  account: string;
  /** What the account may do beyond reading; empty when it can only read. */
  writes: string[];
  /**
   * Objects of the database through which reading can change something whatever the account's
   * privileges (MySQL views that run stored functions with their definer's rights), named; the
   * engine refuses statements that use them.
   */
  unsafeObjects?: string[];
  /** The database, redacted, for the message. */
  where: string;
  /** The worker setting that makes the check refuse (DECODEX_MYSQL_ACCOUNT, ...). */
  setting: string;
  /** The README section that says how to create a read-only account. */
  readme: string;
}

/**
 * The message for an account that can write, or whose reads can write through the database's
 * unsafe objects, or null when it can only read. Under `require` it throws instead (the caller
 * closes what it opened): the setting asks for a database where reading cannot change anything,
 * and an unsafe view breaks that whatever the grants. Under `warn` the message goes to
 * `onAccountWarning` (stderr by default) and is returned for the database's `warnings`.
 */
export function applyAccountPolicy(check: AccountCheck, options: ServerDatabaseOptions): string | null {
  const unsafe = check.unsafeObjects ?? [];
  if (!check.writes.length && !unsafe.length) return null;
  const message = check.writes.length
    ? `the account ${check.account} of ${check.where} can write (${check.writes.join(', ')})${unsafe.length ? `, and ${unsafeText(unsafe)}` : ''}; ` +
      `decodex relies on its statement guard and read-only transactions, and a SELECT-only account is the barrier below them: connect with one (README, "${check.readme}")`
    : `the account ${check.account} of ${check.where} can only read, but ${unsafeText(unsafe)}; decodex refuses statements that name them ` +
      `(README, "${check.readme}")`;
  if (accountPolicyOf(options) === 'require') throw new Error(`${message}. It is refused because ${check.setting}=require`);
  (options.onAccountWarning ?? ((m) => process.stderr.write(`decodex: warning: ${m}\n`)))(message);
  return message;
}

function unsafeText(unsafe: string[]): string {
  return `reading these can change the database: ${unsafe.join('; ')}`;
}

/** What a server engine's database exposes of its account check. */
export interface CheckedDatabase {
  accountCanWrite: string[];
  warnings: string[];
  close(): Promise<void>;
}

/**
 * The connection-time sequence every server engine follows: `probe` reaches the server and reads
 * what the account may do (a wrong URL or a refused login fails here as "cannot connect to ..."),
 * then the account policy applies (applyAccountPolicy). The database is closed on any failure.
 */
export async function checkOnConnect(
  db: CheckedDatabase,
  check: Omit<AccountCheck, 'account' | 'writes'>,
  options: ServerDatabaseOptions,
  probe: () => Promise<{ account: string; writes: string[]; unsafeObjects?: string[] }>,
): Promise<void> {
  let account: string;
  let unsafeObjects: string[] | undefined;
  try {
    ({ account, writes: db.accountCanWrite, unsafeObjects } = await probe());
  } catch (err) {
    await db.close();
    // The driver's error stays the cause: its code tells a database that does not exist (missing-database.ts) from a server that is down.
    throw new Error(`cannot connect to ${check.where}: ${(err as Error).message}`, { cause: err });
  }
  try {
    const warning = applyAccountPolicy({ ...check, account, writes: db.accountCanWrite, unsafeObjects }, options);
    if (warning) db.warnings.unshift(warning);
  } catch (err) {
    await db.close();
    throw err;
  }
}
