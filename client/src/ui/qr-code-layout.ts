import { QR_DEFAULTS } from '@portal/contracts/domain/constants';

/** The module grid of a QR symbol: `size` x `size`, `data[row * size + col]` is 1 for dark. */
export type QrMatrix = { size: number; data: ArrayLike<number> };

export type QrLayoutOptions = {
  /** Total width and height in px, margin included. */
  size?: number;
  /** Quiet zone around the symbol, px. */
  margin?: number;
  /** Fraction of a module each dot fills (1 = touching squares). */
  dotScale?: number;
  /** Logo edge as a fraction of the total size. */
  logoScale?: number;
  hasLogo?: boolean;
};

export type QrLayout = {
  size: number;
  modulePx: number;
  /** One SVG path drawing every dark module. */
  path: string;
  darkCount: number;
  /** Square reserved for the logo, px, or null without a logo. */
  logo: { x: number; y: number; size: number } | null;
};

const round = (n: number) => Math.round(n * 1000) / 1000;

/**
 * Lays a QR matrix out as SVG geometry. Modules under the logo are left out: the
 * component asks for error-correction level H whenever there is a logo, which
 * tolerates far more than the 4% of the symbol a 0.2 logo covers.
 */
export function qrLayout(matrix: QrMatrix, options: QrLayoutOptions = {}): QrLayout {
  const size = options.size ?? QR_DEFAULTS.size;
  const margin = Math.min(options.margin ?? QR_DEFAULTS.margin, size / 4);
  const dotScale = Math.min(1, Math.max(0.1, options.dotScale ?? QR_DEFAULTS.dotScale));
  const logoScale = options.logoScale ?? QR_DEFAULTS.logoScale;
  const modulePx = (size - 2 * margin) / matrix.size;
  const dot = modulePx * dotScale;
  const inset = (modulePx - dot) / 2;

  const logoSize = options.hasLogo ? size * logoScale : 0;
  const logo = options.hasLogo ? { x: (size - logoSize) / 2, y: (size - logoSize) / 2, size: logoSize } : null;
  const underLogo = (x: number, y: number) =>
    logo !== null && x + modulePx > logo.x && x < logo.x + logo.size && y + modulePx > logo.y && y < logo.y + logo.size;

  const parts: string[] = [];
  let darkCount = 0;
  for (let row = 0; row < matrix.size; row++) {
    for (let col = 0; col < matrix.size; col++) {
      if (!matrix.data[row * matrix.size + col]) continue;
      const x = margin + col * modulePx;
      const y = margin + row * modulePx;
      if (underLogo(x, y)) continue;
      darkCount++;
      parts.push(`M${round(x + inset)} ${round(y + inset)}h${round(dot)}v${round(dot)}h${round(-dot)}z`);
    }
  }
  return { size, modulePx, path: parts.join(''), darkCount, logo };
}
