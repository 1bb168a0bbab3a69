import { Suspense, lazy, useEffect, useRef, useState } from 'react';
import type { ComponentProps } from 'react';
import { QR_DEFAULTS } from '@portal/contracts/domain/constants';
import type { QrCode } from './qr-code';
import { retryImport } from '../lib/retry-import';

const QrCodeNow = lazy(() => retryImport(() => import('./qr-code')).then((m) => ({ default: m.QrCode })));

type Props = ComponentProps<typeof QrCode> & {
  /**
   * When the encoder (the qrcode package, ~25 KB) loads: 'visible' once the code is within 300 px
   * of the viewport, or a boolean the parent sets (the side bar's code shows on hover or focus).
   */
  when?: 'visible' | boolean;
};

/**
 * QrCode (ui/qr-code.tsx) whose encoder is fetched only when the code is about to be seen: the
 * home page's download codes sit far below the fold and the side bar's shows on hover, so neither
 * belongs in the first load. Until then, an empty box of the same size keeps the layout still.
 */
export function LazyQrCode({ when = 'visible', ...props }: Props) {
  const box = useRef<HTMLSpanElement>(null);
  const [isWanted, setWanted] = useState(when === true);
  useEffect(() => {
    if (isWanted || when === false) return;
    if (when === true || typeof IntersectionObserver === 'undefined' || !box.current) return setWanted(true);
    const seen = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) setWanted(true);
    }, { rootMargin: '300px' });
    seen.observe(box.current);
    return () => seen.disconnect();
  }, [when, isWanted]);
  const size = props.size ?? QR_DEFAULTS.size;
  const placeholder = <span ref={box} className={props.className} style={{ display: 'inline-block', width: size, height: size }} aria-hidden="true" />;
  if (!isWanted) return placeholder;
  return (
    <Suspense fallback={placeholder}>
      <QrCodeNow {...props} />
    </Suspense>
  );
}
