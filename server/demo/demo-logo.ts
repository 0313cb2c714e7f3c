import { crc32, deflateSync } from 'node:zlib';

/**
 * The demo business's logo, drawn here as a PNG (no binary file in the repository): a navy badge with a red
 * play button and three bars of a wordmark, on a transparent background, 320 x 96 pixels, edges smoothed by
 * sampling each pixel 4 x 4 times.
 */

const WIDTH = 320;
const HEIGHT = 96;
const SAMPLES = 4;

type Rgb = [number, number, number];
const NAVY: Rgb = [30, 41, 82];
const RED: Rgb = [220, 38, 38];
const WHITE: Rgb = [255, 255, 255];
const GOLD: Rgb = [245, 180, 40];

/** Inside a rectangle with rounded corners. */
const inRoundedRect = (x: number, y: number, left: number, top: number, w: number, h: number, r: number) => {
  if (x < left || x > left + w || y < top || y > top + h) return false;
  const cx = Math.min(Math.max(x, left + r), left + w - r);
  const cy = Math.min(Math.max(y, top + r), top + h - r);
  return (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
};

/** Inside the triangle a, b, c (by the signs of the edge functions). */
const inTriangle = (x: number, y: number, [a, b, c]: [number, number][]) => {
  const side = (p: [number, number], q: [number, number]) => (q[0] - p[0]) * (y - p[1]) - (q[1] - p[1]) * (x - p[0]);
  const s1 = side(a, b);
  const s2 = side(b, c);
  const s3 = side(c, a);
  return (s1 >= 0 && s2 >= 0 && s3 >= 0) || (s1 <= 0 && s2 <= 0 && s3 <= 0);
};

/** The colour at a point, or null where the logo is transparent; later shapes paint over earlier ones. */
function colourAt(x: number, y: number): Rgb | null {
  if (!inRoundedRect(x, y, 2, 2, WIDTH - 4, HEIGHT - 4, 18)) return null;
  const cx = 50;
  const cy = HEIGHT / 2;
  if ((x - cx) ** 2 + (y - cy) ** 2 <= 32 ** 2) {
    const play: [number, number][] = [
      [cx - 10, cy - 16],
      [cx - 10, cy + 16],
      [cx + 17, cy],
    ];
    return inTriangle(x, y, play) ? WHITE : RED;
  }
  if (inRoundedRect(x, y, 100, 22, 190, 18, 9)) return WHITE;
  if (inRoundedRect(x, y, 100, 50, 140, 10, 5)) return GOLD;
  if (inRoundedRect(x, y, 100, 68, 96, 8, 4)) return [180, 190, 215];
  return NAVY;
}

function pixels(): Buffer {
  const rowBytes = WIDTH * 4 + 1;
  const data = Buffer.alloc(rowBytes * HEIGHT);
  for (let y = 0; y < HEIGHT; y++) {
    data[y * rowBytes] = 0; // no filter
    for (let x = 0; x < WIDTH; x++) {
      let r = 0;
      let g = 0;
      let b = 0;
      let covered = 0;
      for (let sy = 0; sy < SAMPLES; sy++) {
        for (let sx = 0; sx < SAMPLES; sx++) {
          const colour = colourAt(x + (sx + 0.5) / SAMPLES, y + (sy + 0.5) / SAMPLES);
          if (!colour) continue;
          r += colour[0];
          g += colour[1];
          b += colour[2];
          covered++;
        }
      }
      const at = y * rowBytes + 1 + x * 4;
      if (covered > 0) {
        data[at] = Math.round(r / covered);
        data[at + 1] = Math.round(g / covered);
        data[at + 2] = Math.round(b / covered);
      }
      data[at + 3] = Math.round((covered / (SAMPLES * SAMPLES)) * 255);
    }
  }
  return data;
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** The logo's PNG bytes (8-bit RGBA). */
export function demoLogoPng(): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(WIDTH, 0);
  header.writeUInt32BE(HEIGHT, 4);
  header.set([8, 6, 0, 0, 0], 8); // 8 bits, RGBA, deflate, standard filters, not interlaced
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(pixels(), { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
