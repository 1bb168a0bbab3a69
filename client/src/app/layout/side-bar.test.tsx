import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router-dom';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { LIVE_CHAT_URL } from '@portal/contracts/domain/constants';
import { i18n } from '../../i18n/i18n';
import { QUERY_KEYS } from '../../lib/query-keys';
import { SideBar } from './side-bar';

/** The side bar's customer-service entries: the in-portal live chat is a button, every other entry a link. */
async function render(opts: { liveChatUrl: string; module: boolean; lang?: 'EN' | 'TY' }) {
  await i18n.changeLanguage(opts.lang ?? 'EN');
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  qc.setQueryData(QUERY_KEYS.whitelabel, { modules: { LIVECHAT3: opts.module } });
  qc.setQueryData(QUERY_KEYS.domainRoute, { info: { resources: [], customerService: [
    { csType: 'LIVECHAT', title: 'Live chat 24/7', url: opts.liveChatUrl },
    { csType: 'TELEGRAM', title: 'Telegram support', url: 'https://t.me/luckypeso_support' },
  ] } });
  return renderToStaticMarkup(
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={qc}>
        <MemoryRouter>
          <SideBar />
        </MemoryRouter>
      </QueryClientProvider>
    </I18nextProvider>,
  );
}

describe('side bar: live chat', () => {
  // The side bar reads the page's origin for its download QR code; the server render has no window.
  beforeAll(() => vi.stubGlobal('window', { location: { origin: 'https://luckypeso.example' } }));
  afterAll(() => vi.unstubAllGlobals());

  it('the in-portal live chat opens the chat room (a button, no link to another site) when the module is on', async () => {
    const html = await render({ liveChatUrl: LIVE_CHAT_URL, module: true });
    expect(html).toContain('data-testid="live-chat-button"');
    expect(html).toMatch(/<button[^>]*data-cs="LIVECHAT"/);
    expect(html).not.toMatch(/<a[^>]*data-cs="LIVECHAT"/);
    // Telegram stays an external link
    expect(html).toMatch(/<a[^>]*href="https:\/\/t\.me\/luckypeso_support"[^>]*data-cs="TELEGRAM"/);
  });

  it('with the module off the in-portal entry is not offered (it has nowhere to go)', async () => {
    const html = await render({ liveChatUrl: LIVE_CHAT_URL, module: false });
    expect(html).not.toContain('data-cs="LIVECHAT"');
    expect(html).toContain('data-cs="TELEGRAM"');
  });

  it('names the known kinds in the page language, not by the stored (one-language) title', async () => {
    const en = await render({ liveChatUrl: 'https://chat.example.net/luckypeso', module: true });
    expect(en).toContain('>Telegram support<');
    expect(en).toContain('>Live chat 24/7<');
    const ty = await render({ liveChatUrl: 'https://chat.example.net/luckypeso', module: true, lang: 'TY' });
    expect(ty).toContain('>Suporta sa Telegram<');
    expect(ty).toContain('>Live na chat 24/7<');
    expect(ty).not.toContain('Telegram support');
  });

  it('a merchant whose LIVECHAT entry is another site keeps its external link', async () => {
    const html = await render({ liveChatUrl: 'https://chat.example.net/luckypeso', module: true });
    expect(html).toMatch(/<a[^>]*href="https:\/\/chat\.example\.net\/luckypeso"[^>]*data-cs="LIVECHAT"/);
    expect(html).not.toContain('live-chat-button');
  });
});
