import i18next from 'i18next';
import type { BackendModule, ResourceKey } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LANGUAGE, LANGUAGE_CODES } from '@portal/contracts/domain/constants';
import type { LanguageCode } from '@portal/contracts/domain/constants';
import { writeStorage } from '../lib/storage';
import { retryImport } from '../lib/retry-import';
import { FALLBACK_LANGUAGE, LANG_KEY, LANGUAGE_TAGS, isLanguageCode, storedLanguage } from './languages';

/**
 * Every json under locales/<lang>/ is a namespace (new namespaces need no wiring), each its own
 * chunk: a page fetches only its language's texts, and only the namespaces it uses. FIRST_NAMESPACES
 * load before the app renders (main.tsx awaits i18nReady); the others load with the lazy route or
 * popup that uses them (app/lazy-page.tsx, `ns`), or on first use: a component using a namespace
 * not loaded yet suspends until react-i18next has loaded it (`useSuspense`, below), so no key shows.
 */
const loaders = import.meta.glob<{ default: ResourceKey }>('./locales/*/*.json');

/** The shell, the home page and the game pages: what a first visit paints with. */
export const FIRST_NAMESPACES = ['common', 'home', 'games', 'auth'];

const localeBackend: BackendModule = {
  type: 'backend',
  init() {},
  read(lng, ns, done) {
    const load = loaders[`./locales/${lng.toLowerCase()}/${ns}.json`];
    // A language without its own texts (the fallback covers it) or an unknown namespace: empty.
    if (!load) return done(null, {});
    // Offline, a namespace waits for the network (its component stays suspended), not shown as keys.
    retryImport(load).then((m) => done(null, m.default), (err: unknown) => done(err instanceof Error ? err : new Error(String(err)), false));
  },
};

/** The language the user picked, if any (localStorage 'lang', not sensitive; languages.ts reads it before i18next loads). */
export function getChosenLanguage(): LanguageCode | null {
  return storedLanguage();
}

function applyHtmlLang(lang: string): void {
  if (typeof document === 'undefined') return;
  document.documentElement.lang = isLanguageCode(lang) ? LANGUAGE_TAGS[lang] : 'en';
}

/** Languages translated in full (locales.test.ts checks every key): they need no fallback texts. */
const COMPLETE = new Set(Object.keys(loaders).map((k) => /locales\/([^/]+)\//.exec(k)?.[1]?.toUpperCase()));

export const i18n = i18next.createInstance();

/** Resolves once the current language's FIRST_NAMESPACES are loaded. */
export const i18nReady: Promise<unknown> = i18n.use(localeBackend).use(initReactI18next).init({
  lng: getChosenLanguage() ?? DEFAULT_LANGUAGE,
  fallbackLng: (code) => (COMPLETE.has(code) ? [] : [FALLBACK_LANGUAGE]),
  supportedLngs: [...LANGUAGE_CODES],
  // The codes are the spec's upper-case ones; i18next must not rewrite them.
  load: 'currentOnly',
  lowerCaseLng: false,
  defaultNS: 'common',
  ns: FIRST_NAMESPACES,
  interpolation: { escapeValue: false },
  returnNull: false,
  // A component whose namespace is not loaded yet suspends (react-i18next throws the load's promise)
  // instead of rendering its keys: the nearest <Suspense> (every lazyNamed chunk, the member-centre and
  // agent-office content, the /ops page area, and one around the whole app in app.tsx) shows its
  // fallback until the texts are there. With `useSuspense: false` a component rendered before a lazily
  // loaded namespace arrived showed raw keys (the member centre's RG panel showed `rg_applied`).
  react: { useSuspense: true },
});

/** Loads namespaces of the current language (a lazy route's texts, before it renders). */
export function loadNamespaces(ns: readonly string[]): Promise<unknown> {
  return ns.length ? i18n.loadNamespaces([...ns]) : Promise.resolve();
}
applyHtmlLang(i18n.language);
i18n.on('languageChanged', applyHtmlLang);

/** User choice: remembered and applied. */
export function chooseLanguage(lang: LanguageCode): void {
  writeStorage('local', LANG_KEY, lang);
  void i18n.changeLanguage(lang);
}

/**
 * The brand's default applies when the user has not picked a language, or picked one the merchant
 * does not offer (`offered`: the merchant's languages; a pick made on another merchant's site).
 */
export function applyBrandDefaultLanguage(lang: LanguageCode, offered?: readonly LanguageCode[]): void {
  const chosen = getChosenLanguage();
  const keep = chosen !== null && (!offered || offered.includes(chosen));
  const want = keep ? chosen : lang;
  if (i18n.language !== want) void i18n.changeLanguage(want);
}

export function currentLanguage(): LanguageCode {
  return isLanguageCode(i18n.language) ? i18n.language : FALLBACK_LANGUAGE;
}
