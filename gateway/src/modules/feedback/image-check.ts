import { createInflate } from 'node:zlib';

/** What an upload really is, judged from its bytes alone (never its name or declared type). */
export type CheckedImage = { contentType: 'image/png' | 'image/jpeg'; width: number; height: number };
export type ImageVerdict = { ok: true; image: CheckedImage } | { ok: false; reason: string };

/** Larger sides are refused (no phone camera or screenshot comes near). */
export const IMAGE_MAX_SIDE = 12_000;
/** Decoded size a PNG may inflate to (a 5 MB file can hold gigabytes of zeros): 12 megapixels of RGBA. */
const PNG_MAX_RAW_BYTES = 50 * 1024 * 1024;

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const bad = (reason: string): ImageVerdict => ({ ok: false, reason });

/**
 * Check that `data` is a png or jpg a browser can show: signature, then the structure of the whole
 * file and its dimensions. A PNG is decoded to the end (every chunk's CRC, the compressed pixel
 * stream inflated and its length and row filters matched against the header's size); a JPEG's
 * segments are walked to the end of the image (frame header with its dimensions and components,
 * tables, at least one scan with entropy-coded data, EOI).
 */
export async function checkImage(data: Buffer): Promise<ImageVerdict> {
  if (data.length >= 8 && data.subarray(0, 8).equals(PNG_SIGNATURE)) return checkPng(data);
  if (data.length >= 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return checkJpeg(data);
  return bad('not a png or jpg');
}

// ---- PNG ----

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();
function crc32(buf: Buffer, start: number, end: number): number {
  let c = 0xffffffff;
  for (let i = start; i < end; i++) c = CRC_TABLE[(c ^ buf[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** Allowed bit depths per colour type (PNG spec, table 11.1). */
const PNG_DEPTHS: Record<number, number[]> = { 0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16] };
const PNG_CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

/** Bytes per row of the filtered stream (filter byte included) for `w` pixels. */
const rowBytes = (w: number, bitsPerPixel: number) => 1 + Math.ceil((w * bitsPerPixel) / 8);

/** The row lengths of the decoded stream: one image, or the seven Adam7 passes. */
function pngRows(width: number, height: number, bpp: number, interlaced: boolean): number[] {
  const rows: number[] = [];
  const passes = interlaced
    ? [[0, 0, 8, 8], [4, 0, 8, 8], [0, 4, 4, 8], [2, 0, 4, 4], [0, 2, 2, 4], [1, 0, 2, 2], [0, 1, 1, 2]]
    : [[0, 0, 1, 1]];
  for (const [x0, y0, dx, dy] of passes as Array<[number, number, number, number]>) {
    const w = Math.ceil((width - x0) / dx);
    const h = Math.ceil((height - y0) / dy);
    if (w <= 0 || h <= 0) continue;
    const len = rowBytes(w, bpp);
    for (let i = 0; i < h; i++) rows.push(len);
  }
  return rows;
}

async function checkPng(data: Buffer): Promise<ImageVerdict> {
  let pos = 8;
  let ihdr: { width: number; height: number; depth: number; colour: number; interlace: number } | null = null;
  let hasPalette = false;
  let ended = false;
  let idatClosed = false;
  const idat: Buffer[] = [];
  while (pos < data.length) {
    if (pos + 12 > data.length) return bad('truncated png chunk');
    const len = data.readUInt32BE(pos);
    if (len > 0x7fffffff || pos + 12 + len > data.length) return bad('truncated png chunk');
    const type = data.toString('latin1', pos + 4, pos + 8);
    if (!/^[A-Za-z]{4}$/.test(type)) return bad('invalid png chunk type');
    if (crc32(data, pos + 4, pos + 8 + len) !== data.readUInt32BE(pos + 8 + len)) return bad(`png chunk ${type} fails its CRC`);
    const body = data.subarray(pos + 8, pos + 8 + len);
    if (!ihdr && type !== 'IHDR') return bad('png without IHDR first');
    if (type === 'IHDR') {
      if (ihdr || len !== 13) return bad('invalid IHDR');
      ihdr = { width: body.readUInt32BE(0), height: body.readUInt32BE(4), depth: body[8]!, colour: body[9]!, interlace: body[12]! };
      if (!PNG_DEPTHS[ihdr.colour]?.includes(ihdr.depth) || body[10] !== 0 || body[11] !== 0 || ihdr.interlace > 1) return bad('invalid IHDR');
    } else if (type === 'PLTE') {
      hasPalette = len > 0 && len % 3 === 0 && len <= 768;
      if (!hasPalette) return bad('invalid palette');
    } else if (type === 'IDAT') {
      if (idatClosed) return bad('png IDAT chunks are not consecutive');
      idat.push(body);
    } else if (type === 'IEND') {
      ended = true;
      pos += 12 + len;
      break;
    } else if (idat.length) {
      idatClosed = true;
    } else if ((type.charCodeAt(0) & 0x20) === 0) {
      return bad(`unknown critical png chunk ${type}`);
    }
    pos += 12 + len;
  }
  if (!ihdr || !ended) return bad('png without IEND');
  if (!idat.length) return bad('png without image data');
  if (ihdr.colour === 3 && !hasPalette) return bad('palette png without palette');
  const { width, height } = ihdr;
  if (width < 1 || height < 1 || width > IMAGE_MAX_SIDE || height > IMAGE_MAX_SIDE) return bad('png dimensions out of range');
  const rows = pngRows(width, height, PNG_CHANNELS[ihdr.colour]! * ihdr.depth, ihdr.interlace === 1);
  const expected = rows.reduce((a, b) => a + b, 0);
  if (expected > PNG_MAX_RAW_BYTES) return bad('png too large when decoded');
  // Inflate the pixel stream, keeping nothing but a count and each row's filter byte.
  const ok = await new Promise<boolean>((resolve) => {
    const inflate = createInflate();
    let seen = 0;
    let row = 0;
    let nextRowAt = 0;
    let failed = false;
    inflate.on('data', (chunk: Buffer) => {
      if (failed) return;
      for (;;) {
        const at = nextRowAt - seen;
        if (row >= rows.length || at >= chunk.length) break;
        if (chunk[at]! > 4) {
          failed = true;
          inflate.destroy();
          return resolve(false);
        }
        nextRowAt += rows[row]!;
        row++;
      }
      seen += chunk.length;
      if (seen > expected) {
        failed = true;
        inflate.destroy();
        resolve(false);
      }
    });
    inflate.on('error', () => {
      failed = true;
      resolve(false);
    });
    inflate.on('end', () => resolve(!failed && seen === expected));
    for (const b of idat) inflate.write(b);
    inflate.end();
  });
  if (!ok) return bad('png image data does not decode to its dimensions');
  return { ok: true, image: { contentType: 'image/png', width, height } };
}

// ---- JPEG ----

/** Start-of-frame markers (all but DHT C4, JPG C8 and DAC CC). */
const SOF = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

function checkJpeg(data: Buffer): ImageVerdict {
  let pos = 2;
  let frame: { width: number; height: number; ids: Set<number>; huffman: boolean } | null = null;
  let hasDqt = false;
  let hasDht = false;
  let scans = 0;
  while (pos < data.length) {
    if (data[pos] !== 0xff) return bad('jpeg marker expected');
    while (data[pos] === 0xff) pos++; // fill bytes
    const marker = data[pos];
    pos++;
    if (marker === undefined) return bad('truncated jpeg');
    if (marker === 0xd9) {
      if (!frame || scans === 0) return bad('jpeg without a frame or scan');
      return { ok: true, image: { contentType: 'image/jpeg', width: frame.width, height: frame.height } };
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x00) return bad('unexpected jpeg marker');
    if (pos + 2 > data.length) return bad('truncated jpeg');
    const len = data.readUInt16BE(pos);
    if (len < 2 || pos + len > data.length) return bad('truncated jpeg segment');
    const seg = data.subarray(pos + 2, pos + len);
    if (SOF.has(marker)) {
      if (frame) return bad('jpeg with two frames');
      if (seg.length < 6) return bad('invalid jpeg frame');
      const precision = seg[0]!;
      const height = seg.readUInt16BE(1);
      const width = seg.readUInt16BE(3);
      const n = seg[5]!;
      if (![8, 12, 16].includes(precision) || n < 1 || n > 4 || seg.length !== 6 + 3 * n) return bad('invalid jpeg frame');
      if (width < 1 || height < 1 || width > IMAGE_MAX_SIDE || height > IMAGE_MAX_SIDE) return bad('jpeg dimensions out of range');
      const ids = new Set<number>();
      for (let i = 0; i < n; i++) {
        const h = seg[7 + 3 * i]! >> 4;
        const v = seg[7 + 3 * i]! & 15;
        if (h < 1 || h > 4 || v < 1 || v > 4 || seg[8 + 3 * i]! > 3) return bad('invalid jpeg component');
        ids.add(seg[6 + 3 * i]!);
      }
      frame = { width, height, ids, huffman: marker < 0xc8 };
    } else if (marker === 0xdb) {
      hasDqt = seg.length >= 65;
      if (!hasDqt) return bad('invalid quantization table');
    } else if (marker === 0xc4) {
      hasDht = seg.length >= 17;
      if (!hasDht) return bad('invalid huffman table');
    } else if (marker === 0xda) {
      if (!frame || !hasDqt || (frame.huffman && !hasDht)) return bad('jpeg scan before its frame or tables');
      const n = seg[0] ?? 0;
      if (n < 1 || n > 4 || seg.length !== 4 + 2 * n) return bad('invalid jpeg scan header');
      for (let i = 0; i < n; i++) if (!frame.ids.has(seg[1 + 2 * i]!)) return bad('jpeg scan names an unknown component');
      // Entropy-coded data runs to the next marker that is not a stuffed 0xFF00 or a restart marker.
      let p = pos + len;
      const start = p;
      for (;;) {
        if (p + 1 >= data.length) return bad('truncated jpeg scan');
        if (data[p] === 0xff) {
          const next = data[p + 1]!;
          if (next === 0x00 || (next >= 0xd0 && next <= 0xd7) || next === 0xff) {
            p += next === 0xff ? 1 : 2;
            continue;
          }
          break;
        }
        p++;
      }
      if (p === start) return bad('jpeg scan without data');
      scans++;
      pos = p;
      continue;
    }
    pos += len;
  }
  return bad('jpeg without end of image');
}
