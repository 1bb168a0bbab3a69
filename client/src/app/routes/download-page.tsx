import { useTranslation } from 'react-i18next';
import { LIMITS } from '@portal/contracts/domain/constants';
import type { ResourceType } from '@portal/contracts/domain/constants';
import { useDomainRoute, useResources } from '../../lib/domain-route';
import { QrCode } from '../../ui/qr-code';
import { InstallGuides } from '../../features/site-pages/components/install-guides';

const DOWNLOAD_TYPES: readonly ResourceType[] = ['MOBILECONFIG', 'IOS', 'ANDROID'];

/** /down: QR codes and links of the app resources the merchant has, and the iOS and lite-app install guides. */
export function DownloadPage() {
  const { t } = useTranslation('common');
  const { isPending } = useDomainRoute();
  const resources = useResources(DOWNLOAD_TYPES);
  const platformName = (type: ResourceType) =>
    type === 'ANDROID' ? t('platform_android') : type === 'IOS' ? t('platform_ios') : t('platform_ios_profile');

  return (
    <section className="download-page container">
      <header className="page-head">
        <h1>{t('w_download')}</h1>
        <p className="muted">{t('download_intro')}</p>
      </header>
      {!isPending && resources.length === 0 && <p className="notice-box">{t('download_none')}</p>}
      <div className="download-grid">
        {resources.map((r) => (
          <article key={r.resourceType} className="download-card" data-resource={r.resourceType}>
            <h2>{platformName(r.resourceType)}</h2>
            <QrCode value={r.url} label={t('scan_to_download', { platform: platformName(r.resourceType) })} size={LIMITS.QR_SIZE_DOWNLOAD} margin={10} />
            <p className="muted small">{t('scan_hint')}</p>
            <a className="btn btn--primary" href={r.url} target="_blank" rel="noopener noreferrer">
              {t('download_button')}
            </a>
          </article>
        ))}
      </div>
      <InstallGuides />
    </section>
  );
}
