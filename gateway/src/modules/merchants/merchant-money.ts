import { currencyExponent, formatMinor, scaleCentavos } from '@portal/contracts/domain/money';
import type { Queryable } from '../../db/db.ts';
import { AppError, ErrorCode } from '../../app/errors.ts';

/** What the engagement services need of a merchant's row: its currency (and sign), trial types and UTC offset. */
export type MerchantInfo = { currency: string; symbol: string; trialTypes: number[]; gmt: number };

/**
 * The merchant's row read with the caller's connection or transaction, null when there is none. Not the
 * merchant directory: it may reload through the pool, which on PGlite (one connection, held by the
 * caller's transaction) would wait forever.
 */
export async function findMerchantInfo(q: Queryable, code: string): Promise<MerchantInfo | null> {
  const r = await q.query<{ currency: string; symbol: string | null; trial_types: number[]; gmt: number | null }>(
    `SELECT currency, brand->>'currencySymbol' AS symbol, trial_types, (brand->>'gmtOffsetMinutes')::int AS gmt FROM merchants WHERE code = $1`, [code]);
  const row = r.rows[0];
  return row ? { currency: row.currency, symbol: row.symbol ?? '', trialTypes: row.trial_types, gmt: row.gmt ?? 0 } : null;
}

/** findMerchantInfo, an unknown merchant being UNKNOWN_MERCHANT. */
export async function merchantInfo(q: Queryable, code: string): Promise<MerchantInfo> {
  const info = await findMerchantInfo(q, code);
  if (!info) throw new AppError(ErrorCode.UNKNOWN_MERCHANT);
  return info;
}

/** An amount in minor units as the merchant's pages show it: its sign and its currency's decimals ("₱1,000.00", "₫5,000"). */
export function merchantMoney(info: Pick<MerchantInfo, 'currency' | 'symbol'>, minor: number): string {
  return formatMinor(minor, info.symbol, currencyExponent(info.currency));
}

/**
 * For the demo seeds: a built-in peso amount (in centavos) in the merchant's currency at its demo rate
 * (scaleCentavos), as minor units and as text.
 */
export function demoAmounts(info: Pick<MerchantInfo, 'currency' | 'symbol'>) {
  const amount = (centavos: number) => scaleCentavos(centavos, info.currency);
  return { amount, text: (centavos: number) => merchantMoney(info, amount(centavos)) };
}
