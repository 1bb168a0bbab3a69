import { LANGUAGE_CODES, SUPPORTED_LANGUAGES } from '@portal/contracts/domain/constants';
import type { LanguageCode } from '@portal/contracts/domain/constants';
import { readStorage } from '../lib/storage';

/** Languages with complete translations; every other code falls back to EN. */
export const FALLBACK_LANGUAGE: LanguageCode = 'EN';

/** Each language's own name (an endonym is data, not a translation). */
export const LANGUAGE_NAMES: Record<LanguageCode, string> = {
  CN: '中文 (简体)', EN: 'English', JA: '日本語', TH: 'ไทย', VI: 'Tiếng Việt', MY: 'မြန်မာ', ES: 'Español',
  HI: 'हिन्दी', ID: 'Bahasa Indonesia', KM: 'ខ្មែរ', KO: '한국어', MS: 'Bahasa Melayu', PT: 'Português',
  TA: 'தமிழ்', TW: '中文 (繁體)', TY: 'Tagalog', UR: 'اردو', TR: 'Türkçe', BN: 'বাংলা', AR: 'العربية',
  FA: 'فارسی', RU: 'Русский', KK: 'Қазақша', UZ: 'Oʻzbekcha', LO: 'ລາວ', NE: 'नेपाली', FR: 'Français',
};

/** BCP 47 tags for <html lang> and Intl. */
export const LANGUAGE_TAGS: Record<LanguageCode, string> = {
  CN: 'zh-CN', EN: 'en', JA: 'ja', TH: 'th', VI: 'vi', MY: 'my', ES: 'es', HI: 'hi', ID: 'id', KM: 'km',
  KO: 'ko', MS: 'ms', PT: 'pt', TA: 'ta', TW: 'zh-TW', TY: 'tl', UR: 'ur', TR: 'tr', BN: 'bn', AR: 'ar',
  FA: 'fa', RU: 'ru', KK: 'kk', UZ: 'uz', LO: 'lo', NE: 'ne', FR: 'fr',
};

export function isLanguageCode(v: unknown): v is LanguageCode {
  return typeof v === 'string' && (LANGUAGE_CODES as readonly string[]).includes(v);
}

/** localStorage key of the language the user picked (not sensitive; i18n.ts writes it). */
export const LANG_KEY = 'lang';

/** Languages the portal has texts for (EN and TY): no merchant offers another. */
export function isTranslatedLanguage(v: unknown): v is LanguageCode {
  return typeof v === 'string' && (SUPPORTED_LANGUAGES as readonly string[]).includes(v);
}

/**
 * The languages a merchant offers (its brand's supportedLanguages, those the portal has texts for),
 * in the portal's order; both while the brand is not known.
 */
export function merchantLanguages(brand: { supportedLanguages: readonly string[] } | undefined): LanguageCode[] {
  const offered = brand ? SUPPORTED_LANGUAGES.filter((l) => brand.supportedLanguages.includes(l)) : [];
  return offered.length ? offered : [...SUPPORTED_LANGUAGES];
}

/** The language the user picked, if any (one the portal has texts for: an older pick of another is ignored). */
export function storedLanguage(): LanguageCode | null {
  const v = readStorage('local', LANG_KEY);
  return isTranslatedLanguage(v) ? v : null;
}
