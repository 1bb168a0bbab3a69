import { afterEach, describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { I18nextProvider } from 'react-i18next';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { TOpsProvider } from '@portal/contracts/api/ops-providers';
import { i18n } from '../../../i18n/i18n';
import { ProvidersTable, SecretNote } from './providers-page';

afterEach(async () => {
  await i18n.changeLanguage('EN');
});

const base = { gameTypes: ['RNG'], games: 10, hotGames: 0, launchUrl: null, secretSetAt: null, changedAt: null, disconnectReason: null };
const ROWS: TOpsProvider[] = [
  { ...base, vendor: 'HOUSE', displayName: 'Lucky Slots', games: 4, hotGames: 4, state: 'house', launchUrl: '/house/play' },
  { ...base, vendor: 'AAA', displayName: 'Alpha', state: 'connected', launchUrl: 'https://alpha.example/play', secretSetAt: '2026-12-05T01:00:00.000Z', changedAt: '2026-12-05T01:00:00.000Z' },
  { ...base, vendor: 'BBB', displayName: 'Beta', state: 'disconnected', launchUrl: 'https://beta.example/play', disconnectReason: 'Contract ended' },
  { ...base, vendor: 'CCC', displayName: 'Gamma', state: 'not_connected', gameTypes: ['FISH', 'LOTT'] },
  { ...base, vendor: 'DDD', displayName: 'Delta', state: 'simulated', launchUrl: 'http://localhost:8090/play' },
];

async function render(lang: 'EN' | 'TY', node: React.ReactNode) {
  await i18n.changeLanguage(lang);
  await i18n.loadNamespaces(['ops', 'common', 'home']);
  return renderToStaticMarkup(
    <QueryClientProvider client={new QueryClient()}>
      <I18nextProvider i18n={i18n}>{node}</I18nextProvider>
    </QueryClientProvider>,
  );
}
const table = (canManage: boolean) => <ProvidersTable list={{ isPending: false, isFetching: false }} rows={ROWS} canManage={canManage} onAction={() => undefined} />;
const buttons = (html: string, vendor: string) => [...html.matchAll(new RegExp(`data-testid="ops-provider-${vendor}-(connect|changeUrl|rotate|disconnect)"`, 'g'))].map((m) => m[1]);

describe('the providers page', () => {
  it("shows each provider's connection in EN and TY, with the actions of its state for an administrator", async () => {
    for (const lang of ['EN', 'TY'] as const) {
      const t = i18n.getFixedT(lang, 'ops');
      const html = await render(lang, table(true));
      for (const s of ['house', 'connected', 'disconnected', 'not_connected', 'simulated']) expect(html).toContain(t(`providers_state_${s}`));
      expect(html).toContain(t('providers_action_disconnect'));
      expect(html).toContain('Contract ended');
      expect(buttons(html, 'HOUSE')).toEqual([]);
      expect(buttons(html, 'AAA')).toEqual(['changeUrl', 'rotate', 'disconnect']);
      expect(buttons(html, 'BBB')).toEqual(['connect']);
      expect(buttons(html, 'DDD')).toEqual(['connect', 'disconnect']);
      // The house's internal path is not a launch URL to show; its lines read as one name.
      expect(html).not.toContain('/house/play');
      expect(html).toContain(t('providers_house_name'));
      // A simulated provider is connected already: its button connects the real provider.
      expect(html).toContain(t('providers_action_connect_real'));
      expect(html).toContain(t('providers_hot', { n: 4 }));
      expect(html).not.toContain('{{');
      // Game types by their names (FISH and LOTT read as codes in TY too).
      const home = i18n.getFixedT(lang, 'home');
      expect(html).toContain(`${home('gameType.FISH')} · ${home('gameType.LOTT')}`);
      expect(html).not.toContain('FISH · LOTT');
    }
    await i18n.changeLanguage('EN');
  });

  it('shows no action to a role that may only read', async () => {
    const html = await render('EN', table(false));
    for (const v of ['AAA', 'BBB', 'CCC', 'DDD']) expect(buttons(html, v)).toEqual([]);
  });

  it('shows a new secret with the warning that it is shown once', async () => {
    const secret = 'ab'.repeat(32);
    for (const lang of ['EN', 'TY'] as const) {
      const html = await render(lang, <SecretNote secret={{ vendor: 'AAA', displayName: 'Alpha', secret }} onDone={() => undefined} />);
      expect(html).toContain(secret);
      expect(html).toContain(i18n.getFixedT(lang, 'ops')('providers_secret_once'));
    }
  });
});
