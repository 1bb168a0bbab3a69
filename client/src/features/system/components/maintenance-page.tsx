import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { hideBootLoader } from '../../../lib/boot-loader';
import { CustomerServiceButton } from './customer-service-button';

export function MaintenancePage({ message }: { message?: string }) {
  const { t } = useTranslation('common');
  useEffect(hideBootLoader, []);
  return (
    <main className="system-page" data-page="maintenance">
      <div className="system-page__card">
        <svg className="system-page__art" viewBox="0 0 120 120" aria-hidden="true">
          <circle cx="60" cy="60" r="56" fill="none" stroke="currentColor" strokeWidth="3" opacity="0.35" />
          <path d="M40 80l26-26a12 12 0 0 1 16-16l-8 8 6 6 8-8a12 12 0 0 1-16 16L46 86z" fill="currentColor" />
        </svg>
        <h1 className="system-page__title">{t('maintenance_title')}</h1>
        <p className="system-page__text">{message || t('maintenance_text')}</p>
        <CustomerServiceButton />
      </div>
    </main>
  );
}
