import { describe, expect, it } from 'vitest';
import QRCode from 'qrcode';
import { LIMITS, QR_DEFAULTS } from '@portal/contracts/domain/constants';
import { qrLayout } from './qr-code-layout';

const grid = (rows: string[]) => ({ size: rows.length, data: rows.join('').split('').map((c) => (c === '#' ? 1 : 0)) });

describe('qrLayout', () => {
  it('fits the symbol inside the margin and draws one square per dark module', () => {
    const layout = qrLayout(grid(['#.', '.#']), { size: 100, margin: 10 });
    expect(layout.modulePx).toBe(40);
    expect(layout.darkCount).toBe(2);
    expect(layout.path).toBe('M10 10h40v40h-40zM50 50h40v40h-40z');
    expect(layout.logo).toBeNull();
  });

  it('shrinks dots by dotScale around the module centre', () => {
    const layout = qrLayout(grid(['#']), { size: 100, margin: 0, dotScale: 0.5 });
    expect(layout.path).toBe('M25 25h50v50h-50z');
  });

  it('uses QR_DEFAULTS when options are absent', () => {
    const layout = qrLayout(grid(['#']));
    expect(layout.size).toBe(QR_DEFAULTS.size);
    expect(layout.modulePx).toBe(QR_DEFAULTS.size - 2 * QR_DEFAULTS.margin);
  });

  it('reserves a centred square for the logo and leaves its modules out', () => {
    const full = grid(Array.from({ length: 10 }, () => '#'.repeat(10)));
    const layout = qrLayout(full, { size: 100, margin: 0, hasLogo: true, logoScale: 0.2 });
    expect(layout.logo).toEqual({ x: 40, y: 40, size: 20 });
    expect(layout.darkCount).toBe(100 - 4);
  });

  it('lays out a real symbol from the qrcode package at the download size', () => {
    const { modules } = QRCode.create('https://example.com/app.apk', { errorCorrectionLevel: 'M' });
    const layout = qrLayout(modules, { size: LIMITS.QR_SIZE_DOWNLOAD, margin: QR_DEFAULTS.margin });
    const dark = Array.from(modules.data).filter(Boolean).length;
    expect(layout.darkCount).toBe(dark);
    expect(layout.modulePx * modules.size + 2 * QR_DEFAULTS.margin).toBeCloseTo(LIMITS.QR_SIZE_DOWNLOAD);
  });
});
