import { MysqlDatabase } from '../../activities/database/mysql-database';
import { QueryOutOfMemory, QueryTimeout, ReadOnlyViolation } from '../../activities/database/target-database';
import { HOSTILE_REPLIES, startHostileMysqlServer } from '../support/hostile-mysql-server';

/**
 * Nothing a server sends can throw in the worker or leave a statement waiting for its timeout: a
 * fake server answers statements with replies a real one should never send (an OK packet where
 * rows belong, two result sets, a socket closed mid-rows, an unsolicited error, a 16 MB row
 * header, a malformed row, bytes that are no protocol at all). Each statement ends at once, with
 * an error that says what happened where it fails, and the next statement runs. An 'error' event no one listens to
 * would end this process, and jest would fail the file.
 */
const TIMEOUT_MS = 10_000;
let server: Awaited<ReturnType<typeof startHostileMysqlServer>>;
let db: MysqlDatabase;

beforeAll(async () => {
  server = await startHostileMysqlServer();
  db = await MysqlDatabase.connect(server.url, { connectionLimit: 1, maxResultBytes: 2 ** 20 });
}, 30_000);

afterAll(async () => {
  await db?.close();
  await server?.stop();
});

const failsWith = (check: (err: Error) => void) => (outcome: unknown) => {
  // An error of Node's own (a RangeError from a Buffer) comes from another realm than jest's Error.
  expect(Object.prototype.toString.call(outcome)).toBe('[object Error]');
  check(outcome as Error);
};

/** What each reply ends in; none may end in a timeout. */
const expected: Record<string, (outcome: unknown) => void> = {
  hostile_ok_packet: failsWith((err) => expect(err).toBeInstanceOf(ReadOnlyViolation)),
  hostile_two_results: failsWith((err) => expect(err.message).toMatch(/second result set/)),
  hostile_drop: failsWith((err) => expect(err.message).toMatch(/closed the connection/i)),
  hostile_error_mid_rows: failsWith((err) => expect(err.message).toMatch(/hostile error in the middle of the rows/)),
  hostile_huge_header: failsWith((err) => expect(err).toBeInstanceOf(QueryOutOfMemory)),
  hostile_garbage: failsWith((err) => expect(err.message).not.toBe('')),
  // mysql2 reads the cell on into the next packet's bytes: nonsense, but bounded, and it ends.
  hostile_malformed_row: (outcome) => expect(outcome).not.toBeInstanceOf(QueryTimeout),
  hostile_unsolicited: (outcome) => expect(outcome).toMatchObject({ columns: ['a'], rows: [['1']] }),
};

test.each(Object.keys(expected))('%s: the statement ends at once, and the next one runs', async (marker) => {
  const started = Date.now();
  const outcome = await db.execute(`SELECT ${marker}`, { timeoutMs: TIMEOUT_MS, maxRows: 10 }).then(
    (result) => result,
    (err: Error) => err,
  );
  expect(outcome).not.toBeInstanceOf(QueryTimeout);
  expected[marker](outcome);
  expect(Date.now() - started).toBeLessThan(TIMEOUT_MS / 2);
  // Whatever the connection got into, the pool (of one) gives the next statement a working one.
  await new Promise((r) => setTimeout(r, 100)); // stray events of the hostile reply fire now, inside this test
  expect((await db.execute('SELECT fine', { timeoutMs: TIMEOUT_MS, maxRows: 10 })).rows).toEqual([['fine']]);
});

test('every hostile reply is tried', () => {
  expect(Object.keys(HOSTILE_REPLIES).sort()).toEqual(Object.keys(expected).sort());
});
