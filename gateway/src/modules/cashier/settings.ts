import { DEFAULT_AUTO_RECEIVE_MINUTES } from '@portal/contracts/api/cashier';
import type { TManualBank, TOpsSettings } from '@portal/contracts/api/ops';
import type { TChannelKind } from '@portal/contracts/api/cashier';
import { scaleCentavos } from '@portal/contracts/domain/money';
import type { Queryable } from '../../db/db.ts';

/** The cashier limits (the settings but the manual bank account, which lives on the BANK channel). */
export type CashierLimits = Omit<TOpsSettings, 'manualBank'>;

/** Cashier settings of a PHP merchant without its own row (₱100 to ₱50,000 a request, ₱100,000 a day). */
export const DEFAULT_SETTINGS: CashierLimits = {
  depositMin: 100_00,
  depositMax: 50_000_00,
  withdrawMin: 100_00,
  withdrawMax: 50_000_00,
  withdrawDailyMax: 100_000_00,
  autoReceiveMinutes: DEFAULT_AUTO_RECEIVE_MINUTES,
};

/**
 * The default settings in a merchant's currency: DEFAULT_SETTINGS at the currency's demo rate
 * (scaleCentavos), so a VND merchant starts at ₫50,000 to ₫25,000,000 a request, not ₫100 to ₫50,000.
 */
export function defaultSettings(currency: string): CashierLimits {
  const s = (centavos: number) => scaleCentavos(centavos, currency);
  return {
    depositMin: s(DEFAULT_SETTINGS.depositMin), depositMax: s(DEFAULT_SETTINGS.depositMax),
    withdrawMin: s(DEFAULT_SETTINGS.withdrawMin), withdrawMax: s(DEFAULT_SETTINGS.withdrawMax),
    withdrawDailyMax: s(DEFAULT_SETTINGS.withdrawDailyMax), autoReceiveMinutes: DEFAULT_SETTINGS.autoReceiveMinutes,
  };
}

/**
 * The demo seed's made-up receiving account for manual bank deposits. Only a demo merchant starts with it:
 * shown on a production site, players would send real money to an account nobody holds. A merchant's
 * operator sets the real one on /ops/settings; until then the manual bank channel is not offered.
 */
export const DEMO_MANUAL_BANK: TManualBank = { bankName: 'BDO Unibank', accountName: 'LuckyPeso Payments Inc.', accountNumber: '001230045678' };
/** The same made-up account for a demo merchant in Vietnam (LuckyDong): a Vietnamese bank, never shown outside the demo either. */
export const DEMO_MANUAL_BANK_VN: TManualBank = { bankName: 'Vietcombank', accountName: 'LuckyDong Payments JSC', accountNumber: '0071000123456' };
const DEMO_MANUAL_BANKS: readonly TManualBank[] = [DEMO_MANUAL_BANK, DEMO_MANUAL_BANK_VN];

type DefaultChannel = { code: string; kind: TChannelKind; provider: 'sim' | 'manual'; name: string; min: number; max: number };
/**
 * Channels a merchant gets when it has none, per market, their ranges in centavos (another currency gets
 * them at its demo rate, scaleCentavos): in the Philippines the e-wallets GCash and Maya and InstaPay, in
 * Vietnam VietQR, the MoMo and ZaloPay e-wallets and a NAPAS 247 bank transfer, all through the payment
 * simulator in development; everywhere a manual bank deposit confirmed by an operator. The names are
 * the operator's; the player sees each code's translation (client lib/code-labels).
 */
const DEFAULT_CHANNELS: Record<string, readonly DefaultChannel[]> = {
  PH: [
    { code: 'GCASH', kind: 'gcash', provider: 'sim', name: 'GCash', min: 100_00, max: 50_000_00 },
    { code: 'MAYA', kind: 'maya', provider: 'sim', name: 'Maya', min: 100_00, max: 50_000_00 },
    { code: 'INSTAPAY', kind: 'instapay', provider: 'sim', name: 'Bank transfer (InstaPay)', min: 100_00, max: 50_000_00 },
    { code: 'BANK', kind: 'manual_bank', provider: 'manual', name: 'Manual bank deposit', min: 500_00, max: 500_000_00 },
  ],
  VN: [
    { code: 'VIETQR', kind: 'vietqr', provider: 'sim', name: 'VietQR', min: 100_00, max: 50_000_00 },
    { code: 'MOMO', kind: 'momo', provider: 'sim', name: 'MoMo', min: 100_00, max: 50_000_00 },
    { code: 'ZALOPAY', kind: 'zalopay', provider: 'sim', name: 'ZaloPay', min: 100_00, max: 50_000_00 },
    { code: 'NAPAS', kind: 'napas', provider: 'sim', name: 'Bank transfer (NAPAS 247)', min: 100_00, max: 50_000_00 },
    { code: 'BANK', kind: 'manual_bank', provider: 'manual', name: 'Manual bank deposit', min: 500_00, max: 500_000_00 },
  ],
};
/** The default channels of a market (another market: the Philippine set, as before markets had their own). */
const channelsOfMarket = (market: string): readonly DefaultChannel[] => DEFAULT_CHANNELS[market] ?? DEFAULT_CHANNELS.PH!;
const BANK_CHANNEL = DEFAULT_CHANNELS.PH!.find((c) => c.code === 'BANK')!;

type MerchantMoney = { market: string; currency: string };
async function merchantMoney(q: Queryable, merchant: string): Promise<MerchantMoney> {
  const r = await q.query<MerchantMoney>('SELECT market, currency FROM merchants WHERE code = $1', [merchant]);
  return r.rows[0] ?? { market: 'PH', currency: 'PHP' };
}

type SettingsRow = {
  deposit_min: number; deposit_max: number; withdraw_min: number; withdraw_max: number; withdraw_daily_max: number; auto_receive_minutes: number;
};

export async function settingsOf(q: Queryable, merchant: string): Promise<CashierLimits> {
  const r = await q.query<SettingsRow>('SELECT * FROM cashier_settings WHERE merchant_code = $1', [merchant]);
  const s = r.rows[0];
  if (!s) return defaultSettings((await merchantMoney(q, merchant)).currency);
  return {
    depositMin: s.deposit_min, depositMax: s.deposit_max, withdrawMin: s.withdraw_min, withdrawMax: s.withdraw_max,
    withdrawDailyMax: s.withdraw_daily_max, autoReceiveMinutes: s.auto_receive_minutes,
  };
}

export async function saveSettings(q: Queryable, merchant: string, s: CashierLimits): Promise<void> {
  await q.query(
    `INSERT INTO cashier_settings (merchant_code, deposit_min, deposit_max, withdraw_min, withdraw_max, withdraw_daily_max, auto_receive_minutes)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (merchant_code) DO UPDATE SET deposit_min = $2, deposit_max = $3, withdraw_min = $4, withdraw_max = $5,
       withdraw_daily_max = $6, auto_receive_minutes = $7, updated_at = now()`,
    [merchant, s.depositMin, s.depositMax, s.withdrawMin, s.withdrawMax, s.withdrawDailyMax, s.autoReceiveMinutes],
  );
}

/** Merchants whose default channels are known to exist, per database (a process may hold several: tests). */
const seeded = new WeakMap<Queryable, Set<string>>();
/**
 * Give a merchant the default channels the first time its cashier is used (no-op once it has any).
 * `demoBank`: the manual bank channel starts with DEMO_MANUAL_BANK (the demo seed only); otherwise
 * it has no receiving account until an operator sets one.
 */
export async function ensureChannels(q: Queryable, merchant: string, opts: { demoBank?: boolean } = {}): Promise<void> {
  const known = seeded.get(q) ?? new Set<string>();
  seeded.set(q, known);
  if (known.has(merchant)) return;
  const any = await q.query('SELECT 1 FROM payment_channels WHERE merchant_code = $1 LIMIT 1', [merchant]);
  if (any.rows.length === 0) {
    const m = await merchantMoney(q, merchant);
    const list = channelsOfMarket(m.market);
    for (const c of list) {
      const demo = m.market === 'VN' ? DEMO_MANUAL_BANK_VN : DEMO_MANUAL_BANK;
      await insertDefaultChannel(q, merchant, c, list.indexOf(c), m.currency, c.code === 'BANK' && opts.demoBank ? demo : {}, 'NOTHING');
    }
  }
  known.add(merchant);
}

/**
 * One of DEFAULT_CHANNELS for the merchant, in its place (sort), its range in the merchant's currency,
 * with these details; an existing row of the code is kept ('NOTHING') or gets these details ('details').
 */
async function insertDefaultChannel(q: Queryable, merchant: string, c: DefaultChannel, sort: number, currency: string, details: object, onConflict: 'NOTHING' | 'details') {
  await q.query(
    `INSERT INTO payment_channels (merchant_code, code, kind, provider, name, min_amount, max_amount, details, sort)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
     ON CONFLICT (merchant_code, code) DO ${onConflict === 'details' ? 'UPDATE SET details = EXCLUDED.details' : 'NOTHING'}`,
    [merchant, c.code, c.kind, c.provider, c.name, scaleCentavos(c.min, currency), scaleCentavos(c.max, currency), JSON.stringify(details), sort],
  );
}

type BankDetails = { bankName?: string; accountName?: string; accountNumber?: string };

/**
 * The receiving account of a manual bank channel's details, or null when none is set. Outside the demo
 * (`demoBank` false) the demo seed's made-up account counts as none: a database that got it before
 * production stopped seeding it never shows it to players.
 */
export function manualBankOf(details: BankDetails | null | undefined, opts: { demoBank?: boolean } = {}): TManualBank | null {
  if (!details?.bankName || !details.accountNumber) return null;
  if (!opts.demoBank && DEMO_MANUAL_BANKS.some((d) => details.accountNumber === d.accountNumber && details.bankName === d.bankName)) return null;
  return { bankName: details.bankName, accountName: details.accountName ?? '', accountNumber: details.accountNumber };
}

/** The merchant's manual bank receiving account (see manualBankOf). */
export async function readManualBank(q: Queryable, merchant: string, opts: { demoBank?: boolean } = {}): Promise<TManualBank | null> {
  await ensureChannels(q, merchant, opts);
  const r = await q.query<{ details: BankDetails }>(`SELECT details FROM payment_channels WHERE merchant_code = $1 AND code = 'BANK'`, [merchant]);
  return manualBankOf(r.rows[0]?.details, opts);
}

/** Set (or clear with null) the manual bank receiving account; the channel is offered only with one. */
export async function saveManualBank(q: Queryable, merchant: string, bank: TManualBank | null, opts: { demoBank?: boolean } = {}): Promise<void> {
  await ensureChannels(q, merchant, opts);
  const m = await merchantMoney(q, merchant);
  const list = channelsOfMarket(m.market);
  const bankChannel = list.find((c) => c.code === 'BANK') ?? BANK_CHANNEL;
  await insertDefaultChannel(q, merchant, bankChannel, list.indexOf(bankChannel), m.currency, bank ?? {}, 'details');
}

/**
 * The start of the merchant's current day (its brand's UTC offset), as SQL: a timestamptz expression
 * of $offset minutes. Truncated in UTC explicitly: plain date_trunc on a timestamptz uses the
 * session's TimeZone, which a server set to the operator's zone would apply on top of the offset.
 */
export const DAY_START_SQL = (offsetParam: string) =>
  `(date_trunc('day', now() + make_interval(mins => ${offsetParam}), 'UTC') - make_interval(mins => ${offsetParam}))`;
