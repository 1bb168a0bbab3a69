import { useTranslation } from 'react-i18next';
import type { TVendor } from '@portal/contracts/api/games';
import { LIMITS } from '@portal/contracts/domain/constants';
import { useMediaQuery } from '../../../lib/media-query';
import { usePrefersReducedMotion } from '../../../lib/reduced-motion';
import { useLazyEmbla } from '../../../ui/use-lazy-embla';
import { VendorMark } from './vendor-card';

/** Phones: 9 logos 30 px apart left each about 13 px wide, their names cut to one letter. */
const NARROW = '(max-width: 640px)';
const NARROW_SLIDES = 4;

/** Footer row of vendor logos: 9 visible (4 on a phone), 30px apart, sliding when there are more. */
export function VendorLogos({ vendors }: { vendors: TVendor[] }) {
  const { t } = useTranslation('common');
  const isNarrow = useMediaQuery(NARROW);
  const slides = isNarrow ? NARROW_SLIDES : LIMITS.FOOTER_VENDOR_SLIDES;
  const canSlide = vendors.length > slides;
  // With reduced motion asked the row still drags, but does not slide by itself.
  const isReducedMotion = usePrefersReducedMotion();
  const [ref] = useLazyEmbla(
    { loop: canSlide, align: 'start', dragFree: true, active: canSlide },
    canSlide && !isReducedMotion ? { delay: 2500, stopOnInteraction: false, stopOnMouseEnter: true } : null,
  );
  if (vendors.length === 0) return null;
  return (
    <div
      className="vendor-logos"
      ref={ref}
      aria-label={t('game_providers')}
      role="region"
      style={{ ['--slides' as string]: String(slides), ['--gap' as string]: `${LIMITS.FOOTER_VENDOR_SPACING}px` }}
    >
      <div className="vendor-logos__track">
        {vendors.map((v) => (
          <div className="vendor-logos__slide" key={v.vassalage} title={v.displayName}>
            <VendorMark vendor={v} size={36} />
            <span className="vendor-logos__name">{v.displayName}</span>
          </div>
        ))}
      </div>
    </div>
  );
}
