import { useTranslation } from 'react-i18next';

/** Responsible-gaming marks: generic badges, not any regulator's logo. */
export function ResponsibleGamingBadges({ minAge }: { minAge: number }) {
  const { t } = useTranslation('common');
  return (
    <ul className="rg-badges" aria-label={t('responsible_gaming')}>
      <li title={t('age_restriction', { age: minAge })}>
        <svg viewBox="0 0 48 48" width="44" height="44" role="img" aria-label={t('age_restriction', { age: minAge })}>
          <circle cx="24" cy="24" r="21" fill="none" stroke="currentColor" strokeWidth="3" />
          <text x="24" y="29.5" textAnchor="middle" fontSize="15" fontWeight="800" fill="currentColor">{`${minAge}+`}</text>
        </svg>
      </li>
      <li title={t('badge_licensed')}>
        <svg viewBox="0 0 48 48" width="44" height="44" role="img" aria-label={t('badge_licensed')}>
          <path d="M24 3l17 6v12c0 11-7.4 19.6-17 24C14.4 40.6 7 32 7 21V9z" fill="none" stroke="currentColor" strokeWidth="3" />
          <path d="M16 24l6 6 11-12" fill="none" stroke="currentColor" strokeWidth="3.5" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
      </li>
      <li title={t('badge_play_responsibly')}>
        <svg viewBox="0 0 48 48" width="44" height="44" role="img" aria-label={t('badge_play_responsibly')}>
          <rect x="4" y="4" width="40" height="40" rx="10" fill="none" stroke="currentColor" strokeWidth="3" />
          <path d="M24 36s-11-6.6-11-14a6 6 0 0 1 11-3.3A6 6 0 0 1 35 22c0 7.4-11 14-11 14z" fill="currentColor" />
        </svg>
      </li>
      <li title={t('badge_secure')}>
        <svg viewBox="0 0 48 48" width="44" height="44" role="img" aria-label={t('badge_secure')}>
          <rect x="10" y="21" width="28" height="21" rx="4" fill="none" stroke="currentColor" strokeWidth="3" />
          <path d="M16 21v-6a8 8 0 0 1 16 0v6" fill="none" stroke="currentColor" strokeWidth="3" />
          <circle cx="24" cy="31" r="3" fill="currentColor" />
        </svg>
      </li>
    </ul>
  );
}
