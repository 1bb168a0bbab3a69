import { afterEach, describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { I18nextProvider } from 'react-i18next';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { LanguageCode } from '@portal/contracts/domain/constants';
import { applyBrandDefaultLanguage, i18n } from '../../i18n/i18n';
import { LANG_KEY, merchantLanguages, storedLanguage } from '../../i18n/languages';
import { QUERY_KEYS } from '../../lib/query-keys';
import { LanguageSelect } from './language-select';

async function render(supportedLanguages: string[] | null, languages?: readonly LanguageCode[]) {
  await i18n.changeLanguage('EN');
  await i18n.loadNamespaces('common');
  const client = new QueryClient();
  if (supportedLanguages) client.setQueryData(QUERY_KEYS.whitelabel, { brand: { supportedLanguages, defaultLanguage: supportedLanguages[0] } });
  return renderToStaticMarkup(
    <QueryClientProvider client={client}>
      <I18nextProvider i18n={i18n}>{languages ? <LanguageSelect languages={languages} /> : <LanguageSelect />}</I18nextProvider>
    </QueryClientProvider>,
  );
}

/** A window whose localStorage holds `lang` (node has none; the i18n helpers read it through lib/storage). */
function withStoredLanguage(lang: string | null) {
  const data = new Map<string, string>(lang ? [[LANG_KEY, lang]] : []);
  const localStorage = { getItem: (k: string) => data.get(k) ?? null, setItem: (k: string, v: string) => void data.set(k, v), removeItem: (k: string) => void data.delete(k) };
  (globalThis as { window?: unknown }).window = { localStorage };
}

afterEach(async () => {
  delete (globalThis as { window?: unknown }).window;
  await i18n.changeLanguage('EN');
});

describe('LanguageSelect', () => {
  it("offers only the merchant's languages (EN and TY), not every language code", async () => {
    const html = await render(['EN', 'TY']);
    expect(html).toContain('data-testid="language-select"');
    expect(html.match(/<option /g)).toHaveLength(2);
    expect(html).toContain('>English</option>');
    expect(html).toContain('>Tagalog</option>');
    expect(html).not.toContain('日本語');
  });

  it('is hidden when the merchant offers one language (the English-only demo merchant)', async () => {
    expect(await render(['EN'])).toBe('');
  });

  it('offers the languages it is given (the platform-wide operator console)', async () => {
    expect((await render(['EN'], ['EN', 'TY'])).match(/<option /g)).toHaveLength(2);
  });

  it('offers EN and TY while the brand is not known, and never a language without texts', () => {
    expect(merchantLanguages(undefined)).toEqual(['EN', 'TY']);
    expect(merchantLanguages({ supportedLanguages: ['TY', 'JA', 'EN'] })).toEqual(['EN', 'TY']);
    expect(merchantLanguages({ supportedLanguages: ['TY'] })).toEqual(['TY']);
  });
});

describe('stored language outside the merchant', () => {
  it('ignores a stored language the portal has no texts for', () => {
    withStoredLanguage('JA');
    expect(storedLanguage()).toBeNull();
    withStoredLanguage('TY');
    expect(storedLanguage()).toBe('TY');
  });

  it("falls back to the merchant's default when the stored pick is not offered; keeps an offered pick", async () => {
    withStoredLanguage('TY');
    applyBrandDefaultLanguage('EN', ['EN']);
    await i18n.loadNamespaces('common');
    expect(i18n.language).toBe('EN');
    applyBrandDefaultLanguage('EN', ['EN', 'TY']);
    await i18n.loadNamespaces('common');
    expect(i18n.language).toBe('TY');
    withStoredLanguage('JA');
    applyBrandDefaultLanguage('TY', ['EN', 'TY']);
    await i18n.loadNamespaces('common');
    expect(i18n.language).toBe('TY');
  });
});
