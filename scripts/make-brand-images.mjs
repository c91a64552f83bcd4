// Draws the default brand's sharing image (1200x630 PNG, spec §2) without any image library:
// a dark sky, a low sun and rows of solar panels. Run once; the PNG is committed.
import { writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';

const W = 1200;
const H = 630;
const px = Buffer.alloc((W * 3 + 1) * H);
const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (buf) => {
  let c = 0xffffffff;
  for (const b of buf) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
const mix = (a, b, t) => a.map((v, i) => Math.round(v + (b[i] - v) * t));

for (let y = 0; y < H; y++) {
  px[y * (W * 3 + 1)] = 0; // filter: none
  for (let x = 0; x < W; x++) {
    let c = mix([12, 40, 54], [230, 120, 40], Math.max(0, (y - 120) / (H - 120)) ** 1.6); // sky
    const d = Math.hypot(x - 840, y - 360);
    if (d < 110)
      c = [255, 196, 61]; // sun
    else if (d < 150) c = mix([255, 196, 61], c, (d - 110) / 40);
    if (y > 420) c = [34, 54, 40]; // ground
    // three rows of panels
    for (let row = 0; row < 3; row++) {
      const top = 440 + row * 58;
      if (y >= top && y < top + 40) {
        const shift = row * 40;
        const col = Math.floor((x - 60 - shift) / 110);
        const inPanel = x >= 60 + shift && col < 9 && (x - 60 - shift) % 110 < 96;
        if (inPanel) c = (y - top) % 20 === 0 || ((x - 60 - shift) % 110) % 24 === 0 ? [120, 150, 190] : [28, 52, 96];
      }
    }
    px.set(c, y * (W * 3 + 1) + 1 + x * 3);
  }
}
const chunk = (type, data) => {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
};
const ihdr = Buffer.alloc(13);
ihdr.writeUInt32BE(W, 0);
ihdr.writeUInt32BE(H, 4);
ihdr[8] = 8; // bit depth
ihdr[9] = 2; // RGB
const png = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  chunk('IHDR', ihdr),
  chunk('IDAT', deflateSync(px, { level: 9 })),
  chunk('IEND', Buffer.alloc(0)),
]);
writeFileSync(new URL('../server/assets/brand/og-default.png', import.meta.url), png);
console.log(`og-default.png: ${png.length} bytes`);
