import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { hideBootLoader } from '../../../lib/boot-loader';
import { CustomerServiceButton } from './customer-service-button';

export function BlockedPage({ ip }: { ip: string }) {
  const { t } = useTranslation('common');
  useEffect(hideBootLoader, []);
  return (
    <main className="system-page" data-page="blockip">
      <div className="system-page__card">
        <svg className="system-page__art" viewBox="0 0 120 120" aria-hidden="true">
          <circle cx="60" cy="60" r="40" fill="none" stroke="currentColor" strokeWidth="8" />
          <path d="M32 32l56 56" stroke="currentColor" strokeWidth="8" strokeLinecap="round" />
        </svg>
        <h1 className="system-page__title">{t('blockip')}</h1>
        <p className="system-page__ip">
          {t('your_ip')}: <strong data-testid="visitor-ip">{ip}</strong>
        </p>
        <p className="system-page__text">{t('info_ip_block')}</p>
        <CustomerServiceButton />
      </div>
    </main>
  );
}
