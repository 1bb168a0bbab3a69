import { useTranslation } from 'react-i18next';
import { gmtLabel } from '../../../lib/brand-clock';
import { useBrandOffset } from '../../../lib/whitelabel';

/** The console's time zone, said once (top bar): every time in /ops is on the merchant's clock (useOpsTime). */
export function OpsZoneNote() {
  const { t } = useTranslation('ops');
  const zone = gmtLabel(useBrandOffset());
  return (
    <span className="ops-zone" title={t('times_zone_hint', { zone })} data-testid="ops-zone">
      {t('times_zone', { zone })}
    </span>
  );
}
