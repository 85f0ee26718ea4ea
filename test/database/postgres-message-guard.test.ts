import { PassThrough } from 'node:stream';
import { guardMessages, MessageTooLarge } from '../../activities/database/postgres-message-guard';

/** A backend message: type byte, int32 length (counting itself), body. */
function message(type: string, bodyBytes: number): Buffer {
  const head = Buffer.alloc(5);
  head.write(type, 0, 'latin1');
  head.writeUInt32BE(bodyBytes + 4, 1);
  return Buffer.concat([head, Buffer.alloc(bodyBytes, 0x78)]);
}

/** A stream with the guard, what reached its reader, and how it ended. */
function guarded(maxBytes: number, reader: (chunk: Buffer) => void = () => {}) {
  const stream = new PassThrough();
  const guard = guardMessages(stream, maxBytes);
  const seen: Buffer[] = [];
  let error: Error | null = null;
  stream.on('error', (e) => (error = e));
  stream.on('data', (chunk: Buffer) => {
    seen.push(chunk);
    reader(chunk);
  });
  const feed = async (...chunks: Buffer[]) => {
    for (const chunk of chunks) {
      if (stream.destroyed) break;
      stream.write(chunk);
      await new Promise((r) => setImmediate(r));
    }
  };
  return { stream, guard, feed, seenBytes: () => seen.reduce((n, c) => n + c.length, 0), error: () => error };
}

describe('the PostgreSQL message guard', () => {
  test('messages under the bound pass untouched, whatever the chunking (a header split over chunks included)', async () => {
    const g = guarded(1000);
    const wire = Buffer.concat([message('T', 30), message('D', 900), message('D', 10), message('C', 13), message('Z', 1)]);
    await g.feed(wire.subarray(0, 3), wire.subarray(3, 40), wire.subarray(40, 41), wire.subarray(41));
    expect(g.seenBytes()).toBe(wire.length);
    expect(g.error()).toBeNull();
  });

  test('a message longer than the bound drops the connection at its header: its body never reaches the reader', async () => {
    const g = guarded(1000);
    const big = message('D', 5000);
    await g.feed(message('T', 30), big.subarray(0, 2), big.subarray(2, 64), big.subarray(64));
    expect(g.error()).toBeInstanceOf(MessageTooLarge);
    expect(g.error()!.message).toMatch(/server sent a row of 5 kB, past the 1 kB bound/);
    // The first message, and the two bytes of the big one's header that came before its length was whole.
    expect(g.seenBytes()).toBe(35 + 2);
    expect(g.stream.destroyed).toBe(true);
  });

  test("a statement's rows past twice the bound drop the connection; the count starts again with each statement", async () => {
    const g = guarded(1000);
    await g.feed(message('D', 600), message('D', 600), message('D', 600));
    g.guard.startStatement();
    await g.feed(message('D', 600), message('D', 600), message('D', 600), message('D', 600));
    expect(g.error()).toBeInstanceOf(MessageTooLarge);
    expect(g.error()!.message).toMatch(/rows passed .* on the wire/);
  });

  test('what the reader throws (a string too long, a malformed message) drops the connection instead of escaping', async () => {
    const g = guarded(1000, () => {
      throw Object.assign(new Error('Cannot create a string longer than 0x1fffffe8 characters'), { code: 'ERR_STRING_TOO_LONG' });
    });
    await g.feed(message('D', 10));
    expect(g.error()).toMatchObject({ code: 'ERR_STRING_TOO_LONG' });
    expect(g.stream.destroyed).toBe(true);
  });

  test('a length shorter than its own four bytes is a malformed message', async () => {
    const g = guarded(1000);
    const bad = Buffer.from([0x44, 0, 0, 0, 2]);
    await g.feed(bad);
    expect(g.error()!.message).toMatch(/malformed message/);
  });
});
