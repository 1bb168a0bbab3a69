import { randomInt } from 'node:crypto';
import { PNG } from 'pngjs';

/** 5x7 bitmap digits for the image captcha. */
const DIGITS: Record<string, string[]> = {
  '0': ['01110', '10001', '10011', '10101', '11001', '10001', '01110'],
  '1': ['00100', '01100', '00100', '00100', '00100', '00100', '01110'],
  '2': ['01110', '10001', '00001', '00010', '00100', '01000', '11111'],
  '3': ['11110', '00001', '00001', '01110', '00001', '00001', '11110'],
  '4': ['00010', '00110', '01010', '10010', '11111', '00010', '00010'],
  '5': ['11111', '10000', '11110', '00001', '00001', '10001', '01110'],
  '6': ['00110', '01000', '10000', '11110', '10001', '10001', '01110'],
  '7': ['11111', '00001', '00010', '00100', '01000', '01000', '01000'],
  '8': ['01110', '10001', '10001', '01110', '10001', '10001', '01110'],
  '9': ['01110', '10001', '10001', '01111', '00001', '00010', '01100'],
};

function setPx(png: PNG, x: number, y: number, r: number, g: number, b: number) {
  if (x < 0 || y < 0 || x >= png.width || y >= png.height) return;
  const i = (png.width * y + x) << 2;
  png.data[i] = r;
  png.data[i + 1] = g;
  png.data[i + 2] = b;
  png.data[i + 3] = 255;
}

/** A noisy PNG of the digits, as base64 (no data: prefix). */
export function captchaPng(text: string): string {
  const png = new PNG({ width: 132, height: 44 });
  for (let y = 0; y < png.height; y++) for (let x = 0; x < png.width; x++) {
    const n = randomInt(0, 24);
    setPx(png, x, y, 230 + (n % 20), 232 + (n % 16), 240);
  }
  for (let l = 0; l < 5; l++) {
    let x = randomInt(0, 20), y = randomInt(0, 44);
    const dy = randomInt(-2, 3) / 4;
    const [r, g, b] = [randomInt(80, 200), randomInt(80, 200), randomInt(80, 200)];
    for (; x < 132; x++, y += dy) setPx(png, x, Math.round(y), r, g, b);
  }
  [...text].forEach((ch, i) => {
    const glyph = DIGITS[ch];
    if (!glyph) return;
    const scale = 4;
    const ox = 10 + i * 30 + randomInt(-3, 4);
    const oy = 6 + randomInt(-3, 4);
    const [r, g, b] = [randomInt(10, 90), randomInt(10, 90), randomInt(60, 140)];
    glyph.forEach((row, gy) => [...row].forEach((bit, gx) => {
      if (bit !== '1') return;
      const shear = Math.round((gy - 3) * (randomInt(-1, 2) * 0.3));
      for (let sy = 0; sy < scale; sy++) for (let sx = 0; sx < scale; sx++) setPx(png, ox + gx * scale + sx + shear, oy + gy * scale + sy, r, g, b);
    }));
  });
  for (let d = 0; d < 220; d++) setPx(png, randomInt(0, 132), randomInt(0, 44), randomInt(0, 255), randomInt(0, 255), randomInt(0, 255));
  return PNG.sync.write(png).toString('base64');
}

export const SLIDER = { width: 280, height: 140, piece: 40 } as const;

/** The slider picture: a textured background with a dark square hole where the piece belongs. */
export function sliderPng(holeX: number, holeY: number): string {
  const { width, height, piece } = SLIDER;
  const png = new PNG({ width, height });
  const hueA = randomInt(0, 360);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) {
    const wave = Math.sin((x + hueA) / 17) * 30 + Math.cos((y * 2 + hueA) / 23) * 30;
    const n = randomInt(0, 18);
    setPx(png, x, y, 90 + wave + n, 120 + wave / 2 + n, 170 - wave / 2 + n);
  }
  for (let y = holeY; y < holeY + piece; y++) for (let x = holeX; x < holeX + piece; x++) {
    const edge = y === holeY || x === holeX || y === holeY + piece - 1 || x === holeX + piece - 1;
    if (edge) setPx(png, x, y, 255, 255, 255);
    else setPx(png, x, y, 30, 30, 40);
  }
  return PNG.sync.write(png).toString('base64');
}
