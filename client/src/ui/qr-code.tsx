import { useMemo, useState } from 'react';
import QRCode from 'qrcode';
import { QR_DEFAULTS } from '@portal/contracts/domain/constants';
import { qrLayout } from './qr-code-layout';

type QrCodeProps = {
  /** The text to encode, usually a URL. */
  value: string;
  /** Accessible name of the image. */
  label: string;
  size?: number;
  margin?: number;
  dark?: string;
  light?: string;
  logoSrc?: string;
  logoScale?: number;
  cornerRadius?: number;
  dotScale?: number;
  className?: string;
};

/**
 * A QR code drawn as SVG from the qrcode package's module matrix, so it stays sharp at
 * any zoom. Defaults follow QR_DEFAULTS (spec section 9). A logo raises the error
 * correction to H so the covered centre still scans.
 */
export function QrCode({
  value,
  label,
  size = QR_DEFAULTS.size,
  margin = QR_DEFAULTS.margin,
  dark = QR_DEFAULTS.dark,
  light = QR_DEFAULTS.light,
  logoSrc,
  logoScale = QR_DEFAULTS.logoScale,
  cornerRadius = QR_DEFAULTS.cornerRadius,
  dotScale = QR_DEFAULTS.dotScale,
  className,
}: QrCodeProps) {
  const [isLogoBroken, setLogoBroken] = useState(false);
  const hasLogo = Boolean(logoSrc) && !isLogoBroken;

  const layout = useMemo(() => {
    try {
      const { modules } = QRCode.create(value, { errorCorrectionLevel: hasLogo ? 'H' : 'M' });
      return qrLayout(modules, { size, margin, dotScale, logoScale, hasLogo });
    } catch (err) {
      // Too long for a QR symbol; nothing sensible to draw.
      console.error('QR code could not be generated', err);
      return null;
    }
  }, [value, hasLogo, size, margin, dotScale, logoScale]);

  if (!layout) return null;

  return (
    <svg
      className={className}
      width={size}
      height={size}
      viewBox={`0 0 ${size} ${size}`}
      role="img"
      aria-label={label}
      shapeRendering="crispEdges"
    >
      <rect width={size} height={size} rx={cornerRadius} ry={cornerRadius} fill={light} />
      <path d={layout.path} fill={dark} />
      {layout.logo && logoSrc && (
        <>
          <rect
            x={layout.logo.x - 2}
            y={layout.logo.y - 2}
            width={layout.logo.size + 4}
            height={layout.logo.size + 4}
            rx={4}
            fill={light}
          />
          <image
            href={logoSrc}
            x={layout.logo.x}
            y={layout.logo.y}
            width={layout.logo.size}
            height={layout.logo.size}
            preserveAspectRatio="xMidYMid meet"
            onError={() => {
              console.error('Image load error', logoSrc);
              setLogoBroken(true);
            }}
          />
        </>
      )}
    </svg>
  );
}
