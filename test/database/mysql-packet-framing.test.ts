import { MAX_PACKET_PAYLOAD, PacketFraming } from '../../activities/database/mysql-packet-framing';

/** A MySQL packet: 3-byte little-endian payload length, a sequence byte, the payload. */
function packet(length: number, sequence = 0): Buffer {
  const bytes = Buffer.alloc(4 + length, 0x78);
  bytes.writeUIntLE(length, 0, 3);
  bytes[3] = sequence;
  return bytes;
}

/** Feeds `bytes` in pieces of `size`, as a socket may deliver them; the first non-null answer. */
function feedInPieces(framing: PacketFraming, bytes: Buffer, size: number): number | null {
  for (let i = 0; i < bytes.length; i += size) {
    const over = framing.feed(bytes.subarray(i, i + size));
    if (over !== null) return over;
  }
  return null;
}

describe('PacketFraming', () => {
  it('lets packets within the bound through, in any chunking, headers split included', () => {
    const stream = Buffer.concat([packet(10), packet(100, 1), packet(0, 2), packet(1000, 3), packet(1000, 4)]);
    for (const size of [1, 2, 3, 5, 7, 4096]) expect(feedInPieces(new PacketFraming(1000), stream, size)).toBeNull();
  });

  it('stops at the header of a packet over the bound, before its payload arrives', () => {
    const framing = new PacketFraming(1000);
    expect(framing.feed(packet(500))).toBeNull();
    // Only the header: the payload is not needed to know.
    expect(framing.feed(packet(1001).subarray(0, 4))).toBe(1001);
  });

  it('sums a logical packet split into 16 MB packets, and starts over after its last part', () => {
    const full = packet(MAX_PACKET_PAYLOAD);
    const bound = MAX_PACKET_PAYLOAD * 2; // two full parts fit, a third byte does not
    const fits = new PacketFraming(bound);
    expect(fits.feed(full)).toBeNull();
    expect(fits.feed(full)).toBeNull();
    expect(fits.feed(packet(0))).toBeNull(); // an empty last part ends a payload of exactly 2 x 0xFFFFFF
    // A new logical packet counts from zero again.
    expect(fits.feed(full)).toBeNull();
    expect(fits.feed(packet(10))).toBeNull();

    const over = new PacketFraming(bound);
    expect(over.feed(full)).toBeNull();
    expect(over.feed(full)).toBeNull();
    expect(over.feed(packet(1).subarray(0, 4))).toBe(bound + 1);
  });

  it('sees a header that arrives in the same chunk as the end of the previous payload', () => {
    const framing = new PacketFraming(100);
    expect(framing.feed(Buffer.concat([packet(50), packet(101).subarray(0, 2)]))).toBeNull();
    expect(framing.feed(packet(101).subarray(2, 4))).toBe(101);
  });

  it('refuses a bound that is no positive integer', () => {
    for (const bound of [0, -1, 1.5, NaN]) expect(() => new PacketFraming(bound)).toThrow(RangeError);
  });
});
