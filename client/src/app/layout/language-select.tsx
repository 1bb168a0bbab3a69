import { useTranslation } from 'react-i18next';
import { LANGUAGE_CODES } from '@portal/contracts/domain/constants';
import { chooseLanguage } from '../../i18n/i18n';
import { LANGUAGE_NAMES, isLanguageCode } from '../../i18n/languages';
import { Icon } from '../../ui/icons';

export function LanguageSelect() {
  const { t, i18n } = useTranslation('common');
  return (
    <label className="lang-select" title={t('language')}>
      <Icon name="globe" size={16} />
      <span className="sr-only">{t('language')}</span>
      <select
        value={i18n.language}
        onChange={(e) => {
          if (isLanguageCode(e.target.value)) chooseLanguage(e.target.value);
        }}
        data-testid="language-select"
      >
        {LANGUAGE_CODES.map((code) => (
          <option key={code} value={code}>
            {LANGUAGE_NAMES[code]}
          </option>
        ))}
      </select>
    </label>
  );
}
