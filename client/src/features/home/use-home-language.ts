import { useTranslation } from 'react-i18next';
import type { LanguageCode } from '@portal/contracts/domain/constants';
import { FALLBACK_LANGUAGE, isLanguageCode } from '../../i18n/languages';

/** The UI language as the spec's upper-case code; queries re-run when it changes. */
export function useHomeLanguage(): LanguageCode {
  const { i18n } = useTranslation('home');
  return isLanguageCode(i18n.language) ? i18n.language : FALLBACK_LANGUAGE;
}
