import { createHash } from 'node:crypto';
import type { Queryable, Tx } from '../../db/db.ts';
import { wakeRelays } from '../../bus/outbox.ts';
import { AppError, ErrorCode } from '../../app/errors.ts';
import { INSUFFICIENT_FUNDS_SQLSTATE, InsufficientFunds, memberAccount, systemAccount } from '../wallet/ledger.ts';

/**
 * Bonus money in the ledger (migration 057). A member's bonus balance is a ledger account of kind
 * 'bonus' held for that member (bonus_member_id), apart from the withdrawable wallet. Grants move money
 * from the merchant's promotion cost account (system 'bonus', spread over shards) to the bonus account
 * (or straight to the wallet when no wagering is required); conversion moves it from the bonus account to
 * the wallet; forfeiture back to the system account. Each move is one transfer with an idempotency key.
 */
const COST_SHARDS = 16;

export async function bonusAccount(tx: Tx, merchant: string, memberId: number, currency: string): Promise<number> {
  return Number((await tx.query<{ id: string | number }>('SELECT promo_bonus_account($1, $2, $3) AS id', [merchant, memberId, currency])).rows[0]!.id);
}

async function costAccount(tx: Tx, merchant: string, currency: string, key: string): Promise<number> {
  const shard = createHash('sha256').update(key).digest()[0]! % COST_SHARDS;
  return systemAccount(tx, merchant, 'bonus', currency, shard);
}

async function post(tx: Tx, merchant: string, currency: string, key: string, kind: string, debit: number, credit: number, amount: number, memo: Record<string, unknown>) {
  let r: { o_outcome: string; o_transfer: string | number; o_events: number };
  try {
    r = (await tx.query<typeof r>('SELECT * FROM promo_transfer($1, $2, $3, $4, $5, $6, $7, $8)', [merchant, currency, key, kind, debit, credit, amount, JSON.stringify(memo)])).rows[0]!;
  } catch (err) {
    if ((err as { code?: string }).code === INSUFFICIENT_FUNDS_SQLSTATE) throw new InsufficientFunds();
    throw err;
  }
  if (r.o_outcome === 'mismatch') throw new AppError(ErrorCode.IDEMPOTENCY_MISMATCH);
  if (r.o_events > 0) tx.afterCommit(wakeRelays);
  return { transferId: Number(r.o_transfer), replayed: r.o_outcome === 'replay' };
}

export type MoneyRef = { merchant: string; currency: string; memberId: number; rewardId: number };

/** A bonus under wagering: cost account -> the member's bonus account. */
export async function grantBonus(tx: Tx, m: MoneyRef, amount: number) {
  const key = `promo:reward:${m.rewardId}:grant`;
  return post(tx, m.merchant, m.currency, key, 'promo.bonus', await costAccount(tx, m.merchant, m.currency, key), await bonusAccount(tx, m.merchant, m.memberId, m.currency), amount, { rewardId: m.rewardId });
}

/** A reward without wagering: cost account -> the member's wallet (balance.changed). */
export async function payReward(tx: Tx, m: MoneyRef, amount: number) {
  const key = `promo:reward:${m.rewardId}:pay`;
  return post(tx, m.merchant, m.currency, key, 'promo.reward', await costAccount(tx, m.merchant, m.currency, key), await memberAccount(tx, m.merchant, m.memberId, m.currency), amount, { rewardId: m.rewardId });
}

/**
 * Wagering met: the bonus account -> the wallet (balance.changed). Once per conversion: the first one is
 * keyed `promo:reward:<id>:convert`, a later one (after a rolled-back bet undid the conversion) `...:convert:<n>`.
 */
export async function convertBonus(tx: Tx, m: MoneyRef, amount: number, conversion = 1) {
  return post(tx, m.merchant, m.currency, conversion === 1 ? `promo:reward:${m.rewardId}:convert` : `promo:reward:${m.rewardId}:convert:${conversion}`, 'promo.bonus.convert',
    await bonusAccount(tx, m.merchant, m.memberId, m.currency), await memberAccount(tx, m.merchant, m.memberId, m.currency), amount, { rewardId: m.rewardId });
}

/**
 * A rolled-back bet took a converted bonus's wagering below its requirement: the wallet -> the bonus
 * account (balance.changed), keyed by the rolled-back bet so it happens once per rollback. The caller
 * caps `amount` at what the wallet holds (see walletAvailableForUpdate).
 */
export async function revertBonus(tx: Tx, m: MoneyRef, amount: number, bet: { vendor: string; transactionId: string }) {
  return post(tx, m.merchant, m.currency, `promo:reward:${m.rewardId}:revert:${bet.vendor}:${bet.transactionId}`, 'promo.bonus.revert',
    await memberAccount(tx, m.merchant, m.memberId, m.currency), await bonusAccount(tx, m.merchant, m.memberId, m.currency), amount, { rewardId: m.rewardId, ...bet });
}

/** What the member's wallet has available (balance less holds), its row locked until the transaction ends (so a clawback capped by it cannot overdraw). */
export async function walletAvailableForUpdate(tx: Tx, m: MoneyRef): Promise<number> {
  const id = await memberAccount(tx, m.merchant, m.memberId, m.currency);
  const r = await tx.query<{ available: string | number }>('SELECT balance - held AS available FROM ledger_accounts WHERE id = $1 FOR UPDATE', [id]);
  return Math.max(0, Number(r.rows[0]?.available ?? 0));
}

/** Expired: the bonus account -> the cost account, once. */
export async function forfeitBonus(tx: Tx, m: MoneyRef, amount: number) {
  const key = `promo:reward:${m.rewardId}:forfeit`;
  return post(tx, m.merchant, m.currency, key, 'promo.bonus.forfeit', await bonusAccount(tx, m.merchant, m.memberId, m.currency), await costAccount(tx, m.merchant, m.currency, key), amount, { rewardId: m.rewardId });
}

export async function bonusBalance(q: Queryable, memberId: number, currency: string): Promise<number> {
  const r = await q.query<{ balance: string | number }>('SELECT balance FROM ledger_accounts WHERE bonus_member_id = $1 AND currency = $2', [memberId, currency]);
  return Number(r.rows[0]?.balance ?? 0);
}
