import { describe, expect, it } from 'vitest';
import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router-dom';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { TFeedback } from '@portal/contracts/api/feedback';
import type { TReferralValue } from '@portal/contracts/api/referral';
import type { TProfitValue } from '@portal/contracts/api/profit';
import { i18n } from '../../i18n/i18n';
import { QUERY_KEYS } from '../../lib/query-keys';
import { FeedbackPage, pickProblem } from '../../features/feedback/components/feedback-page';
import { ReferralPanel } from '../../features/referral/components/referral-panel';
import { ProfitPanel } from '../../features/profit/components/profit-panel';
import { WinnersPage } from '../../features/site-pages/components/winners-page';
import { DescriptionPage } from '../../features/site-pages/components/description-page';
import { SponsorPage } from '../../features/site-pages/components/sponsor-page';
import { InstallGuides } from '../../features/site-pages/components/install-guides';
import { SeamlessPage, isSameOrigin } from '../../features/site-pages/components/seamless-page';
import { winnersQuery } from '../../features/site-pages/api/site-facts';
import { referralQuery } from '../../features/referral/api/get-referral';
import { profitQuery } from '../../features/profit/api/get-profit';
import { feedbackListQuery } from '../../features/feedback/api/feedback';
import { balanceQueryOptions } from '../../features/wallet/api/get-balance';
import { WalletsPanel } from '../../features/wallet/components/wallets-panel';
import { NotFoundPage } from './not-found-page';
import { RecordsPanel } from '../../features/records/components/records-panel';

const FEEDBACK: TFeedback[] = [
  { id: '12', content: 'The fish game froze', status: 'answered', images: [{ n: 0, contentType: 'image/png', width: 40, height: 30, size: 900 }], answer: 'Fixed, thank you!', answeredAt: '2026-05-02T10:00:00.000Z', createdAt: '2026-05-01T10:00:00.000Z' },
  { id: '11', content: 'Slow deposit', status: 'open', images: [], answer: null, answeredAt: null, createdAt: '2026-04-30T10:00:00.000Z' },
];
const REFERRAL: TReferralValue = {
  code: 'ABCD2345', link: 'https://luckypeso.example/register?referralCode=ABCD2345', registered: 2, deposited: 1, pageNo: 1, pageSize: 10, total: 2,
  list: [
    { account: 'f*****1', registeredAt: '2026-05-01T10:00:00.000Z', hasDeposited: true, firstDepositAt: '2026-05-02T10:00:00.000Z' },
    { account: 'g*****2', registeredAt: '2026-05-01T11:00:00.000Z', hasDeposited: false, firstDepositAt: null },
  ],
};
const PROFIT: TProfitValue = {
  period: 'today', from: '2026-05-01T16:00:00.000Z', to: '2026-05-02T16:00:00.000Z',
  rows: [
    { gameType: 'FISH', betCount: 1, validBets: 300, payout: 0, profit: -300 },
    { gameType: 'RNG', betCount: 2, validBets: 1500, payout: 2500, profit: 1000 },
  ],
  totals: { betCount: 3, validBets: 1800, payout: 2500, profit: 700 },
};

function client() {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  qc.setQueryData(feedbackListQuery(1).queryKey, { list: FEEDBACK, pageNo: 1, pageSize: 10, total: 2 });
  qc.setQueryData(referralQuery(1).queryKey, REFERRAL);
  qc.setQueryData(profitQuery({ period: 'today' }).queryKey, PROFIT);
  qc.setQueryData(winnersQuery().queryKey, { list: [
    { id: 'w1', iconUrl: null, winAmount: 1_250_000, vo: { winAmount: 1_250_000 }, gameName: 'Lucky Peso Reels', customerName: 'juandelacruz', at: '2026-05-01T10:00:00.000Z' },
    { id: 'w2', iconUrl: '/img/game/JL/RN001.svg?n=Aztec', winAmount: 900_000, vo: { winAmount: 900_000 }, gameName: 'Aztec Riches', customerName: 'mariaclara', at: '2026-05-01T09:00:00.000Z' },
  ] });
  qc.setQueryData(balanceQueryOptions(null).queryKey, { currency: 'PHP', currencySymbol: '₱', balance: 150_000, available: 120_000, held: 30_000 });
  qc.setQueryData(['siteFacts', 'games', 'all'], { games: [], pageNo: 1, pageSize: 1, total: 10497, totalPages: 10497 });
  qc.setQueryData(['siteFacts', 'games', 'RNG'], { games: [], pageNo: 1, pageSize: 1, total: 10000, totalPages: 10000 });
  qc.setQueryData(QUERY_KEYS.domainRoute, { info: { customerService: [{ csType: 'TELEGRAM', title: 'Telegram', url: 'https://t.me/x' }], resources: [] } });
  return qc;
}

async function render(node: ReactNode, lang: 'EN' | 'TY') {
  await i18n.changeLanguage(lang);
  await i18n.loadNamespaces(['pages', 'common', 'home', 'wallet']);
  return renderToStaticMarkup(
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={client()}>
        <MemoryRouter>{node}</MemoryRouter>
      </QueryClientProvider>
    </I18nextProvider>,
  );
}
/** No key of the namespace left untranslated in the markup. */
const rawKeys = (html: string) => html.match(/\b(feedback|referral|profit|winners|desc|sponsor|guide|seamless)_[a-z0-9_]+\b/g) ?? [];

describe('an address with no page', () => {
  it('says so with the address and leads home, in EN and TY (it showed the home page titled Home)', async () => {
    for (const [lang, heading, home] of [['EN', 'Page not found', 'Back to the home page'], ['TY', 'Hindi nahanap ang pahina', 'Bumalik sa Tahanan']] as const) {
      await i18n.changeLanguage(lang);
      await i18n.loadNamespaces(['common']);
      const html = renderToStaticMarkup(
        <I18nextProvider i18n={i18n}>
          <MemoryRouter initialEntries={['/promotionz']}><NotFoundPage /></MemoryRouter>
        </I18nextProvider>,
      );
      expect(html).toContain(`<h1>${heading}</h1>`);
      expect(html).toContain('/promotionz');
      expect(html).toMatch(new RegExp(`<a [^>]*href="/"[^>]*>${home}</a>`));
    }
  });
});

describe('issue 14 pages render in EN and TY', () => {
  it('feedback: form with limits, history with images and the operator answer', async () => {
    const en = await render(<FeedbackPage />, 'EN');
    expect(en).toContain('0 / 140 characters');
    expect(en).toContain('Up to 3 images, png or jpg, 5MB each');
    expect(en).toContain('Fixed, thank you!');
    expect(en).toContain('data-testid="feedback-answer-12"');
    expect(en).toContain('data-testid="feedback-image-12-0"');
    expect(en).toContain('Our support team will answer soon.');
    expect(rawKeys(en)).toEqual([]);
    const ty = await render(<FeedbackPage />, 'TY');
    expect(ty).toContain('0 / 140 na karakter');
    expect(ty).toContain('Ang aming sagot');
    expect(rawKeys(ty)).toEqual([]);
  });

  it('feedback: the page pre-checks count, size and type (the server decides by content)', () => {
    const f = (name: string, size: number, type: string) => ({ name, size, type }) as File;
    expect(pickProblem([f('a.png', 10, 'image/png'), f('b.jpg', 10, 'image/jpeg')])).toBeNull();
    expect(pickProblem([1, 2, 3, 4].map((i) => f(`${i}.png`, 10, 'image/png')))).toBe('count');
    expect(pickProblem([f('a.png', 5 * 1024 * 1024 + 1, 'image/png')])).toBe('size');
    expect(pickProblem([f('a.gif', 10, 'image/gif')])).toBe('type');
  });

  it('referral: the link, counts and the masked list with first deposits', async () => {
    const en = await render(<ReferralPanel />, 'EN');
    expect(en).toContain('value="https://luckypeso.example/register?referralCode=ABCD2345"');
    expect(en).toMatch(/data-testid="referral-registered">2</);
    expect(en).toMatch(/data-testid="referral-deposited">1</);
    expect(en).toContain('Not yet');
    expect(en).toContain('<svg'); // the QR code
    expect(rawKeys(en)).toEqual([]);
    const ty = await render(<ReferralPanel />, 'TY');
    expect(ty).toContain('Hindi pa');
    expect(ty).toContain('Kopyahin ang link');
  });

  it('personal profit: periods, rows per game type and totals', async () => {
    const en = await render(<ProfitPanel />, 'EN');
    for (const p of ['today', '7d', '30d', 'custom']) expect(en).toContain(`data-testid="profit-period-${p}"`);
    expect(en).toContain('data-testid="profit-row-RNG"');
    expect(en).toContain('Fishing');
    expect(en).toMatch(/data-testid="profit-total"><span class="pf-up">\+[^<]*7\.00</);
    expect(rawKeys(en)).toEqual([]);
    const ty = await render(<ProfitPanel />, 'TY');
    expect(ty).toContain('Kabuuan');
    expect(ty).toContain('Nakaraang 7 araw');
  });

  it('transferFund: the wallets and the seamless-wallet explanation, with deposit, withdraw and play links, no transfer button', async () => {
    const en = await render(<WalletsPanel bonusBalance={25_000} points={1234} />, 'EN');
    const ty = await render(<WalletsPanel bonusBalance={25_000} points={1234} />, 'TY');
    for (const html of [en, ty]) {
      expect(html).toMatch(/data-testid="wallet-main">₱1,500.00</);
      expect(html).toMatch(/data-testid="wallet-withdrawable">₱1,200.00</);
      expect(html).toMatch(/data-testid="wallet-bonus">₱250.00</);
      expect(html).toMatch(/data-testid="wallet-points">1,234</);
      expect(html).toContain('₱300.00'); // on hold
      for (const href of ['/member?tab=depositv2', '/member?tab=withdraw', '/seamless']) expect(html).toContain(`href="${href}"`);
      expect(html).not.toContain('<button');
      expect(html).not.toMatch(/\bwallets_[a-z]/); // no raw key
    }
    expect(en).toContain('No transfer needed');
    expect(ty).toContain('Hindi kailangang maglipat');
    // Without the promotions and points answers the rows are left out, not shown as zero.
    const bare = await render(<WalletsPanel />, 'EN');
    expect(bare).not.toContain('data-wallet="bonus"');
    expect(bare).not.toContain('data-wallet="points"');
  });

  it('account record: says its balances count money on hold for a withdrawal, and what can be used now', async () => {
    const en = await render(<RecordsPanel />, 'EN');
    const ty = await render(<RecordsPanel />, 'TY');
    expect(en).toMatch(/Balances in this list include ₱?300\.00 on hold for a pending withdrawal; you can use ₱?1,200\.00 now/);
    expect(ty).toMatch(/Kasama sa mga balanse sa listahang ito ang ₱?300\.00 na naka-hold/);
  });

  it('winners, description (claims next to facts), sponsor, install guides and seamless', async () => {
    for (const lang of ['EN', 'TY'] as const) {
      const winners = await render(<WinnersPage />, lang);
      expect(winners).toContain('j****z'); // masked name
      // A row without an icon shows the neutral game glyph, one with an icon its image: never a bare cell.
      expect(winners.match(/data-testid="winner-game-fallback"/g)).toHaveLength(1);
      expect(winners).toContain('src="/img/game/JL/RN001.svg?n=Aztec"');
      expect(winners).toContain('12,500.00');
      const desc = await render(<DescriptionPage />, lang);
      expect(desc).toContain('10,497');
      expect(desc).toContain('data-testid="claim-zalo"');
      expect(desc).toContain('Telegram');
      const sponsor = await render(<SponsorPage />, lang);
      expect(sponsor).toContain('https://t.me/x');
      const guides = await render(<InstallGuides />, lang);
      expect(guides.match(/class="guide-step"/g)).toHaveLength(10);
      const seamless = await render(<SeamlessPage />, lang);
      expect(seamless).toContain('href="/"');
      for (const html of [winners, desc, sponsor, guides, seamless]) expect(rawKeys(html)).toEqual([]);
      if (lang === 'EN') {
        expect(desc).toContain('Not offered on this site: there is no Zalo reward here.');
        expect(guides).toContain('Add to Home Screen');
      } else {
        expect(desc).toContain('Hindi inaalok sa site na ito');
        expect(guides).toContain('I-install ang app sa iPhone');
      }
    }
    await i18n.changeLanguage('EN');
  });

  it('frames only games served by this site', () => {
    expect(isSameOrigin('/house/play?game=SLOT', 'http://localhost:8080')).toBe(true);
    expect(isSameOrigin('http://localhost:8090/play?x=1', 'http://localhost:8080')).toBe(false);
  });
});
