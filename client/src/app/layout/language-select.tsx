import { useTranslation } from 'react-i18next';
import type { LanguageCode } from '@portal/contracts/domain/constants';
import { chooseLanguage } from '../../i18n/i18n';
import { LANGUAGE_NAMES, merchantLanguages } from '../../i18n/languages';
import { useWhitelabel } from '../../lib/whitelabel';
import { Icon } from '../../ui/icons';

/**
 * The language picker: the merchant's languages (its brand's supportedLanguages), or `languages`
 * when given (the platform-wide operator console). Hidden when there is only one to pick.
 */
export function LanguageSelect({ languages }: { languages?: readonly LanguageCode[] } = {}) {
  const { t, i18n } = useTranslation('common');
  const { data } = useWhitelabel();
  const offered = languages ?? merchantLanguages(data?.brand);
  if (offered.length < 2) return null;
  return (
    <label className="lang-select" title={t('language')}>
      <Icon name="globe" size={16} />
      <span className="sr-only">{t('language')}</span>
      <select
        value={i18n.language}
        onChange={(e) => {
          const picked = offered.find((code) => code === e.target.value);
          if (picked) chooseLanguage(picked);
        }}
        data-testid="language-select"
      >
        {offered.map((code) => (
          <option key={code} value={code}>
            {LANGUAGE_NAMES[code]}
          </option>
        ))}
      </select>
    </label>
  );
}
