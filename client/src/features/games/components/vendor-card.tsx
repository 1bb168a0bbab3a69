import { useTranslation } from 'react-i18next';
import type { TVendor } from '@portal/contracts/api/games';
import { REBATE_LABELS } from '@portal/contracts/domain/constants';
import { vendorIcon } from '../lib/nav';

function initials(name: string): string {
  return name
    .split(/[\s_-]+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => w[0]?.toUpperCase() ?? '')
    .join('');
}

export function VendorMark({ vendor, size = 40 }: { vendor: TVendor; size?: number }) {
  const icon = vendorIcon(vendor);
  if (icon) return <img className="vendor-mark" src={icon} alt="" width={size} height={size} loading="lazy" />;
  return (
    <span className="vendor-mark vendor-mark--text" style={{ width: size, height: size }} aria-hidden="true">
      {initials(vendor.displayName)}
    </span>
  );
}

/** A drop-menu card: icon, name and the category's rebate label. */
export function VendorCardBody({ vendor }: { vendor: TVendor }) {
  const { t } = useTranslation('common');
  // '-' is the spec's label for a type with no rebate (PVP): no tag then, rather than "Rebate -".
  const label = REBATE_LABELS[vendor.gameType];
  const rebate = label && label !== '-' ? label : null;
  return (
    <>
      <VendorMark vendor={vendor} />
      <span className="vendor-card__name">{vendor.displayName}</span>
      {vendor.maintenance ? (
        <span className="vendor-card__tag vendor-card__tag--warn">{t('under_maintenance')}</span>
      ) : (
        rebate && <span className="vendor-card__tag">{t('rebate_up_to', { value: rebate })}</span>
      )}
    </>
  );
}
