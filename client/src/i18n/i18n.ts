import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LANGUAGE, LANGUAGE_CODES } from '@portal/contracts/domain/constants';
import type { LanguageCode } from '@portal/contracts/domain/constants';
import { readStorage, writeStorage } from '../lib/storage';
import { FALLBACK_LANGUAGE, LANGUAGE_TAGS, isLanguageCode } from './languages';
import { buildResources } from './resources';

/** Every json under locales/<lang>/ is a namespace: new namespaces need no wiring. */
const modules = import.meta.glob<unknown>('./locales/*/*.json', { eager: true, import: 'default' });
const resources = buildResources(modules);

const LANG_KEY = 'lang';

/** The language the user picked, if any (localStorage 'lang', not sensitive). */
export function getChosenLanguage(): LanguageCode | null {
  const v = readStorage('local', LANG_KEY);
  return isLanguageCode(v) ? v : null;
}

function applyHtmlLang(lang: string): void {
  if (typeof document === 'undefined') return;
  document.documentElement.lang = isLanguageCode(lang) ? LANGUAGE_TAGS[lang] : 'en';
}

export const i18n = i18next.createInstance();

void i18n.use(initReactI18next).init({
  resources,
  lng: getChosenLanguage() ?? DEFAULT_LANGUAGE,
  fallbackLng: FALLBACK_LANGUAGE,
  supportedLngs: [...LANGUAGE_CODES],
  // The codes are the spec's upper-case ones; i18next must not rewrite them.
  load: 'currentOnly',
  lowerCaseLng: false,
  defaultNS: 'common',
  ns: Object.keys(resources[FALLBACK_LANGUAGE] ?? { common: {} }),
  interpolation: { escapeValue: false },
  returnNull: false,
  react: { useSuspense: false },
});
applyHtmlLang(i18n.language);
i18n.on('languageChanged', applyHtmlLang);

/** User choice: remembered and applied. */
export function chooseLanguage(lang: LanguageCode): void {
  writeStorage('local', LANG_KEY, lang);
  void i18n.changeLanguage(lang);
}

/** The brand's default applies only when the user has not picked a language. */
export function applyBrandDefaultLanguage(lang: LanguageCode): void {
  if (getChosenLanguage() === null && i18n.language !== lang) void i18n.changeLanguage(lang);
}

export function currentLanguage(): LanguageCode {
  return isLanguageCode(i18n.language) ? i18n.language : FALLBACK_LANGUAGE;
}
