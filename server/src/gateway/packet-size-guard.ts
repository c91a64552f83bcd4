/**
 * Follows the MQTT framing of one connection's incoming bytes (fixed header byte, remaining
 * length as a variable byte integer, then that many bytes) and says no as soon as a packet
 * announces more than the current limit: from its header, before any of its body is buffered.
 * The MQTT parser of the in-process broker has no size limit of its own and buffers a whole packet
 * (up to the 256 MB the format allows) before looking at it.
 *
 * Costs a few operations per packet header; body bytes are skipped without being looked at.
 */
export class PacketSizeGuard {
  /** Body bytes of the current packet still to skip. */
  private skip = 0;
  /** Where we are: 'type' = at a packet's first byte, 'length' = inside its remaining length. */
  private phase: 'type' | 'length' = 'type';
  private length = 0;
  private multiplier = 1;
  private lengthBytes = 0;

  /** `limit()` is read at each packet header (it may change, e.g. once the client is authenticated). */
  constructor(private readonly limit: () => number) {}

  /** Feeds the next chunk; false = a packet is too big or malformed (close the connection). */
  accept(chunk: Uint8Array): boolean {
    let i = 0;
    const n = chunk.length;
    while (i < n) {
      if (this.skip > 0) {
        const take = Math.min(this.skip, n - i);
        this.skip -= take;
        i += take;
        continue;
      }
      if (this.phase === 'type') {
        i++;
        this.phase = 'length';
        this.length = 0;
        this.multiplier = 1;
        this.lengthBytes = 0;
        continue;
      }
      const b = chunk[i++];
      this.length += (b & 0x7f) * this.multiplier;
      this.multiplier *= 128;
      this.lengthBytes++;
      if (b & 0x80) {
        if (this.lengthBytes >= 4) return false; // a remaining length has at most 4 bytes
        continue;
      }
      if (this.length > this.limit()) return false;
      this.skip = this.length;
      this.phase = 'type';
    }
    return true;
  }
}
