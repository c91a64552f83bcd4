import { PacketSizeGuard } from './packet-size-guard';

/** A packet: type byte, remaining length (variable byte integer), body. */
function packet(type: number, bodyLength: number): Buffer {
  const len: number[] = [];
  let n = bodyLength;
  do {
    let b = n % 128;
    n = Math.floor(n / 128);
    if (n > 0) b |= 128;
    len.push(b);
  } while (n > 0);
  return Buffer.concat([Buffer.from([type, ...len]), Buffer.alloc(bodyLength, 7)]);
}

describe('PacketSizeGuard', () => {
  it('lets packets up to the limit through, however the stream is cut into chunks', () => {
    const stream = Buffer.concat([packet(0x10, 100), packet(0x30, 1000), packet(0xc0, 0), packet(0x30, 300)]);
    for (const size of [1, 2, 3, 7, 64, stream.length]) {
      const guard = new PacketSizeGuard(() => 1000);
      for (let i = 0; i < stream.length; i += size) expect(guard.accept(stream.subarray(i, i + size))).toBe(true);
    }
  });

  it('refuses a packet from its header alone when it announces more than the limit', () => {
    const guard = new PacketSizeGuard(() => 8192);
    // 250 MB announced; only the first five bytes are there.
    expect(guard.accept(packet(0x10, 0).subarray(0, 1))).toBe(true);
    expect(guard.accept(Buffer.from([0x80, 0x80, 0x80, 0x77]))).toBe(false);
    expect(new PacketSizeGuard(() => 8192).accept(packet(0x30, 8193).subarray(0, 4))).toBe(false);
  });

  it('reads the limit at each header (raised after authentication) and refuses a malformed length', () => {
    let limit = 10;
    const guard = new PacketSizeGuard(() => limit);
    expect(guard.accept(packet(0x10, 10))).toBe(true);
    limit = 5000;
    expect(guard.accept(packet(0x30, 4000))).toBe(true);
    expect(guard.accept(packet(0x30, 5001).subarray(0, 3))).toBe(false);
    expect(new PacketSizeGuard(() => 1e9).accept(Buffer.from([0x30, 0xff, 0xff, 0xff, 0xff, 0x01]))).toBe(false);
  });
});
