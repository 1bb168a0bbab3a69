import { beforeAll, describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { I18nextProvider } from 'react-i18next';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { i18n } from '../../../i18n/i18n';
import { TeamBetsScreen } from './team-bets';

function render(lang: string) {
  void i18n.changeLanguage(lang);
  const html = renderToStaticMarkup(
    <QueryClientProvider client={new QueryClient()}>
      <I18nextProvider i18n={i18n}><TeamBetsScreen /></I18nextProvider>
    </QueryClientProvider>,
  );
  void i18n.changeLanguage('EN');
  return html;
}
const gameTypeOptions = (html: string) => {
  const select = /<select[^>]*data-testid="ao-bets-game-type"[^>]*>(.*?)<\/select>/.exec(html)?.[1] ?? '';
  return [...select.matchAll(/<option value="(\w*)"[^>]*>([^<]*)</g)].map((m) => `${m[1]}=${m[2]}`);
};

beforeAll(async () => {
  for (const lang of ['TY', 'EN']) {
    await i18n.changeLanguage(lang);
    await i18n.loadNamespaces(['agent-office', 'home', 'common', 'wallet', 'register']);
  }
});

describe('team betting filter', () => {
  it('picks the game type from a localized list with All first', () => {
    const en = gameTypeOptions(render('EN'));
    expect(en.slice(0, 3)).toEqual(['=All', 'RNG=Slots', 'FISH=Fishing']);
    expect(en).toHaveLength(10);
    expect(gameTypeOptions(render('TY')).slice(0, 2)).toEqual(['=Lahat', 'RNG=Mga Slot']);
  });
});
