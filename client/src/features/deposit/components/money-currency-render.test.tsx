import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { I18nextProvider } from 'react-i18next';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { TPaymentChannel } from '@portal/contracts/api/cashier';
import { i18n } from '../../../i18n/i18n';
import { QUERY_KEYS } from '../../../lib/query-keys';
import { clearSession, setSessionToken } from '../../../lib/session';
import { settingsKey } from '../../ops/api/get-settings';
import { SettingsPage } from '../../ops/components/settings-page';
import { DepositPanel } from './deposit-panel';

/**
 * The deposit page and the operator's cashier settings as a merchant in đồng sees them (VND, ISO 4217
 * exponent 0): amounts without decimals, Vietnam's channels by name, labels naming the currency; and
 * the same screens of the peso merchant unchanged.
 */
const BRAND = {
  VND: { currency: 'VND', currencySymbol: '₫', gmtOffsetMinutes: 420 },
  PHP: { currency: 'PHP', currencySymbol: '₱', gmtOffsetMinutes: 480 },
};
const channel = (code: string, kind: TPaymentChannel['kind'], min: number, max: number): TPaymentChannel =>
  ({ code, kind, provider: 'sim', name: code, minAmount: min, maxAmount: max, bankDetails: null });

beforeAll(async () => {
  for (const lang of ['TY', 'EN']) {
    await i18n.changeLanguage(lang);
    await i18n.loadNamespaces(['wallet', 'ops', 'common', 'rg', 'register']);
  }
});
afterEach(async () => {
  clearSession();
  await i18n.changeLanguage('EN');
});

async function render(currency: keyof typeof BRAND, node: React.ReactNode, data: (qc: QueryClient) => void, lang = 'EN') {
  await i18n.changeLanguage(lang);
  setSessionToken('tok');
  const qc = new QueryClient();
  qc.setQueryData(QUERY_KEYS.whitelabel, { brand: BRAND[currency], modules: {} });
  data(qc);
  return renderToStaticMarkup(
    <QueryClientProvider client={qc}>
      <I18nextProvider i18n={i18n}>{node}</I18nextProvider>
    </QueryClientProvider>,
  );
}

describe('the deposit page in the merchant currency', () => {
  const vn = [channel('VIETQR', 'vietqr', 50_000, 25_000_000), channel('MOMO', 'momo', 50_000, 25_000_000), channel('ZALOPAY', 'zalopay', 50_000, 25_000_000), channel('NAPAS', 'napas', 50_000, 25_000_000)];
  const withChannels = (list: TPaymentChannel[]) => (qc: QueryClient) => {
    qc.setQueryData(['deposit', 'channels'], { list });
    qc.setQueryData(['deposit', 'orders', 1, 10], { list: [], pageNo: 1, pageSize: 10, total: 1 });
  };

  it("VND: Vietnam's channels by their names, the range in whole đồng (₫50,000, not ₫500.00)", async () => {
    const html = await render('VND', <DepositPanel navigate={() => undefined} />, withChannels(vn));
    for (const name of ['VietQR', 'MoMo', 'ZaloPay', 'Bank transfer (NAPAS 247)', 'MoMo e-wallet', 'NAPAS 247 bank transfer']) expect(html).toContain(name);
    expect(html).toContain('₫50,000');
    expect(html).toContain('₫25,000,000');
    expect(html).not.toMatch(/₫[\d,]+\.\d/);
    expect(html).not.toContain('channel_');
    const ty = await render('VND', <DepositPanel navigate={() => undefined} />, withChannels(vn), 'TY');
    expect(ty).toContain('E-wallet ng MoMo');
  });

  it('PHP: as before, centavos shown with 2 decimals', async () => {
    const html = await render('PHP', <DepositPanel navigate={() => undefined} />, withChannels([channel('GCASH', 'gcash', 100_00, 50_000_00)]));
    expect(html).toContain('GCash');
    expect(html).toContain('₱100.00');
    expect(html).toContain('₱50,000.00');
  });
});

describe("the operator's cashier settings form in the merchant currency", () => {
  const settings = (s: Record<string, number>) => (qc: QueryClient) => qc.setQueryData(settingsKey, { ...s, autoReceiveMinutes: 60, manualBank: null });

  it('VND: labels name the currency, the form holds whole đồng', async () => {
    const html = await render('VND', <SettingsPage />, settings({ depositMin: 50_000, depositMax: 25_000_000, withdrawMin: 50_000, withdrawMax: 25_000_000, withdrawDailyMax: 50_000_000 }));
    expect(html).toContain('Deposit minimum (VND)');
    expect(html).toContain('value="50000"');
    expect(html).toContain('value="25000000"');
    expect(html).not.toContain('(PHP)');
    const ty = await render('VND', <SettingsPage />, settings({ depositMin: 50_000, depositMax: 25_000_000, withdrawMin: 50_000, withdrawMax: 25_000_000, withdrawDailyMax: 50_000_000 }), 'TY');
    expect(ty).toContain('Pinakamababang deposito (VND)');
  });

  it('PHP: pesos with centavos, as before', async () => {
    const html = await render('PHP', <SettingsPage />, settings({ depositMin: 100_00, depositMax: 50_000_00, withdrawMin: 100_00, withdrawMax: 50_000_00, withdrawDailyMax: 100_000_00 }));
    expect(html).toContain('Deposit minimum (PHP)');
    expect(html).toContain('value="100.00"');
    expect(html).toContain('value="50000.00"');
  });
});
