/** A packet payload of this length continues in the next packet (MySQL client/server protocol). */
export const MAX_PACKET_PAYLOAD = 0xffffff;

/**
 * Follows MySQL's packet framing over the bytes a server sends, without keeping them: each packet
 * is a 3-byte little-endian payload length, a sequence byte, then the payload. A payload of
 * exactly 0xFFFFFF bytes continues in the next packet, so one logical packet (one row of a result
 * set) is the sum of such packets and the first shorter one. Each header announces its length
 * before its payload arrives, so a logical packet over the bound is seen before any of the bytes
 * past the bound are read: the client's parser, which assembles a whole logical packet in memory
 * before anything can look at the row, never gets them.
 *
 * Plain protocol only: a compressed or TLS stream frames its bytes differently.
 */
export class PacketFraming {
  private readonly header = Buffer.alloc(4);
  private headerBytes = 0;
  /** Payload bytes of the current packet not seen yet. */
  private payloadLeft = 0;
  /** Payload bytes announced so far for the current logical packet. */
  private logicalBytes = 0;

  constructor(private readonly maxLogicalPacketBytes: number) {
    if (!(Number.isSafeInteger(maxLogicalPacketBytes) && maxLogicalPacketBytes > 0))
      throw new RangeError(`maxLogicalPacketBytes must be a positive integer, got ${maxLogicalPacketBytes}`);
  }

  /**
   * Reads the next bytes of the stream. Returns null while every logical packet stays within the
   * bound, else the bytes announced so far for the one that does not (at least the bound + 1);
   * the framing is then spent (the stream must be dropped).
   */
  feed(chunk: Uint8Array): number | null {
    let i = 0;
    while (i < chunk.length) {
      if (this.payloadLeft > 0) {
        const skipped = Math.min(this.payloadLeft, chunk.length - i);
        this.payloadLeft -= skipped;
        i += skipped;
        continue;
      }
      this.header[this.headerBytes++] = chunk[i++];
      if (this.headerBytes < 4) continue;
      this.headerBytes = 0;
      const length = this.header.readUIntLE(0, 3);
      this.logicalBytes += length;
      if (this.logicalBytes > this.maxLogicalPacketBytes) return this.logicalBytes;
      this.payloadLeft = length;
      if (length < MAX_PACKET_PAYLOAD) this.logicalBytes = 0; // the last part: the next header starts a new logical packet
    }
    return null;
  }
}
