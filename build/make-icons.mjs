// Draws the tray and app icons (committed PNGs; run again only to change
// them): two jacks joined by a cord, anti-aliased from distance fields.
// Template images are black with alpha so macOS tints them.
import { writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';

function crc32(buf) {
  let c = ~0;
  for (const b of buf) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return ~c >>> 0;
}
function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
}
function png(size, pixel) {
  const raw = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) {
    raw[y * (size * 4 + 1)] = 0;
    for (let x = 0; x < size; x++)
      raw.set(pixel((x + 0.5) / size, (y + 0.5) / size, 1 / size), y * (size * 4 + 1) + 1 + x * 4);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr.set([8, 6, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
const seg = (px, py, ax, ay, bx, by) => {
  const dx = bx - ax,
    dy = by - ay;
  const t = Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)));
  return Math.hypot(px - ax - t * dx, py - ay - t * dy);
};
// Shape coverage in [0,1]: ring jacks at (0.28,0.3) and (0.72,0.7), a cord between them.
function cover(x, y, px) {
  const ring = (cx, cy) => Math.abs(Math.hypot(x - cx, y - cy) - 0.17) - 0.055;
  const cord = seg(x, y, 0.4, 0.42, 0.6, 0.58) - 0.05;
  const d = Math.min(ring(0.28, 0.3), ring(0.72, 0.7), cord);
  return Math.max(0, Math.min(1, 0.5 - d / px));
}
const template = (x, y, px) => [0, 0, 0, Math.round(255 * cover(x, y, px))];
// "Something waits for you": the same glyph with a filled dot in the top-right corner.
const dot = (x, y, px) => Math.max(0, Math.min(1, 0.5 - (Math.hypot(x - 0.8, y - 0.2) - 0.17) / px));
const alertTemplate = (x, y, px) => [
  0,
  0,
  0,
  Math.round(255 * Math.max(cover(x, y, px) * (Math.hypot(x - 0.8, y - 0.2) < 0.24 ? 0 : 1), dot(x, y, px))),
];
const alertColour = (x, y, px) => {
  const d = dot(x, y, px);
  const g = Math.hypot(x - 0.8, y - 0.2) < 0.24 ? 0 : cover(x, y, px);
  return d > 0 ? [220, 38, 38, Math.round(255 * d)] : [37, 99, 235, Math.round(255 * g)];
};
const colour = (x, y, px) => {
  const a = cover(x, y, px);
  return [37, 99, 235, Math.round(255 * a)];
};
const app = (x, y, px) => {
  const r = 0.22,
    m = 0.04;
  const qx = Math.max(Math.abs(x - 0.5) - (0.5 - m - r), 0),
    qy = Math.max(Math.abs(y - 0.5) - (0.5 - m - r), 0);
  const bg = Math.max(0, Math.min(1, 0.5 - (Math.hypot(qx, qy) - r) / px));
  const fg = cover(0.5 + (x - 0.5) * 1.35, 0.5 + (y - 0.5) * 1.35, px * 1.35);
  const c = [37 + (255 - 37) * fg, 99 + (255 - 99) * fg, 235 + (255 - 235) * fg].map(Math.round);
  return [...c, Math.round(255 * bg)];
};
writeFileSync('build/icons/trayTemplate.png', png(16, template));
writeFileSync('build/icons/trayTemplate@2x.png', png(32, template));
writeFileSync('build/icons/tray.png', png(32, colour));
writeFileSync('build/icons/trayAlertTemplate.png', png(16, alertTemplate));
writeFileSync('build/icons/trayAlertTemplate@2x.png', png(32, alertTemplate));
writeFileSync('build/icons/trayAlert.png', png(32, alertColour));
writeFileSync('build/icons/icon.png', png(512, app));
