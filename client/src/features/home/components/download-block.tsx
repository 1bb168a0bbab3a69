import { useTranslation } from 'react-i18next';
import type { TResource } from '@portal/contracts/api/system';
import { LIMITS, type ResourceType } from '@portal/contracts/domain/constants';
import { useResources } from '../../../lib/domain-route';
import { LazyQrCode } from '../../../ui/lazy-qr-code';
import { Icon, type IconName } from './icons';

const DOWNLOAD_TYPES = ['MOBILECONFIG', 'IOS', 'ANDROID'] as const satisfies readonly ResourceType[];
const ICONS: Record<(typeof DOWNLOAD_TYPES)[number], IconName> = { MOBILECONFIG: 'PHONE', IOS: 'APPLE', ANDROID: 'ANDROID' };

function DownloadCard({ resource }: { resource: TResource }) {
  const { t } = useTranslation('home');
  const type = resource.resourceType as (typeof DOWNLOAD_TYPES)[number];
  const name = t(`download.${type}.name`);
  return (
    <article className="home-download__card">
      <div className="home-download__qr">
        <LazyQrCode value={resource.url} size={LIMITS.QR_SIZE_DOWNLOAD} label={t('download.qrLabel', { name })} />
      </div>
      <div className="home-download__meta">
        <span className="home-download__platform"><Icon name={ICONS[type]} />{name}</span>
        <span className="home-download__hint">{t(`download.${type}.hint`)}</span>
        <a className="home-download__button" href={resource.url} target="_blank" rel="noopener noreferrer" download={type === 'ANDROID' ? '' : undefined}>
          {t('download.button')}
        </a>
      </div>
    </article>
  );
}

/** QR codes for the MOBILECONFIG, IOS and ANDROID resources the merchant has. */
export function DownloadBlock() {
  const { t } = useTranslation('home');
  const resources = useResources(DOWNLOAD_TYPES);
  if (resources.length === 0) return null;
  return (
    <section className="home-section home-download" data-testid="home-download" aria-labelledby="home-download-title">
      <div className="home-download__intro">
        <h2 id="home-download-title">{t('download.title')}</h2>
        <p>{t('download.text')}</p>
      </div>
      <div className="home-download__cards">
        {resources.map((r) => <DownloadCard key={r.resourceType} resource={r} />)}
      </div>
    </section>
  );
}
