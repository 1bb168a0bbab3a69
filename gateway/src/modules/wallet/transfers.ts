import type { TWalletTransfer } from '@portal/contracts/api/wallet';
import { isAgentType } from '@portal/contracts/domain/member';
import type { Db } from '../../db/db.ts';
import { AppError, ErrorCode } from '../../app/errors.ts';
import type { Merchant } from '../merchants/merchant-directory.ts';
import { transfer } from './ledger.ts';
import { isInSubtree } from '../agents/team-tree.ts';
import { checkMoney, notExcludedSql } from '../rg/rg-service.ts';

type TransferRow = {
  id: number; direction: 'upline' | 'downline'; from_member_id: number; to_member_id: number; amount: number;
  from_account: string; to_account: string; created_at: Date | string; total?: number;
};

const SELECT = `SELECT t.*, f.account AS from_account, d.account AS to_account FROM member_transfers t
  JOIN members f ON f.id = t.from_member_id JOIN members d ON d.id = t.to_member_id`;

function toTransfer(r: TransferRow, viewer: number): TWalletTransfer {
  return {
    id: String(r.id), direction: r.direction, fromAccount: r.from_account, toAccount: r.to_account,
    amount: r.from_member_id === viewer ? -r.amount : r.amount, createdAt: (r.created_at instanceof Date ? r.created_at : new Date(r.created_at)).toISOString(),
  };
}

/**
 * Member-to-member transfers: a member to its direct parent (upline), or an agent to any member of
 * its own tree (downline: the target is in the agent's subtree, modules/agents/team-tree.ts). Idempotent by the
 * client's requestId: the ledger key is `mtransfer:{from}:{requestId}`.
 */
export function createTransfers(deps: { db: Db; verifyWithdrawPassword(memberId: number, pw: string): Promise<void> }) {
  const { db } = deps;

  /** Is `memberId` in the agent's own team (a strict descendant)? One indexed range on members.tree_path. */
  const isInTree = (agentId: number, memberId: number) => isInSubtree(db, agentId, memberId);

  async function send(merchant: Merchant, from: { memberId: number; memberType: number }, b: { direction: 'upline' | 'downline'; toAccount?: string | undefined; amount: number; withdrawPassword: string; requestId: string }) {
    let to: number;
    if (b.direction === 'upline') {
      const r = await db.query<{ parent_id: number | null; account_lower: string; usable: boolean }>(
        `SELECT p.id AS parent_id, p.account_lower, p.status = 'active' AND ${notExcludedSql('p.id')} AS usable
           FROM members m JOIN members p ON p.id = m.parent_id WHERE m.id = $1`, [from.memberId]);
      const parent = r.rows[0];
      if (!parent?.parent_id) throw new AppError(ErrorCode.NO_UPLINE);
      // A recipient named by the client must be the upline: money never goes to someone else with a 200.
      if (b.toAccount && b.toAccount.toLowerCase() !== parent.account_lower) {
        throw new AppError(ErrorCode.VALIDATION, 'toAccount is not your upline', [{ path: 'toAccount', message: 'Not your upline' }]);
      }
      // A disabled (or excluded) upline receives nothing, as a disabled downline does not.
      if (!parent.usable) throw new AppError(ErrorCode.UPLINE_UNAVAILABLE);
      to = parent.parent_id;
    } else {
      if (!isAgentType(from.memberType, merchant.agentTypes)) throw new AppError(ErrorCode.NON_AGENT, 'Only agents transfer to their downlines');
      if (!b.toAccount) throw new AppError(ErrorCode.VALIDATION, 'toAccount is required', [{ path: 'toAccount', message: 'required' }]);
      // Responsible gaming: an excluded player takes no money in (a deposit is refused too) and is out of
      // the agent's team lists, so the agent is answered as for anyone else outside them.
      const r = await db.query<{ id: number; active: boolean }>(
        `SELECT t.id, t.status = 'active' AS active FROM members t WHERE t.merchant_code = $1 AND t.account_lower = $2 AND ${notExcludedSql('t.id')}`,
        [merchant.code, b.toAccount.toLowerCase()]);
      const target = r.rows[0];
      if (!target || !(await isInTree(from.memberId, target.id))) throw new AppError(ErrorCode.NOT_IN_TREE);
      // A disabled member of the team is still in the agent's lists: it is told why nothing can be sent.
      if (!target.active) throw new AppError(ErrorCode.DOWNLINE_UNAVAILABLE);
      to = target.id;
    }
    await deps.verifyWithdrawPassword(from.memberId, b.withdrawPassword);
    return db.tx(async (tx) => {
      // Money an agent sends down is a deposit made for the downline: it keeps to the downline's deposit
      // limits (responsible gaming; it went past them). A retry of a transfer already made answers as it did.
      if (b.direction === 'downline') {
        const done = await tx.query(`SELECT 1 FROM member_transfers WHERE from_member_id = $1 AND request_id = $2`, [from.memberId, b.requestId]);
        if (!done.rows[0]) {
          try {
            await checkMoney(tx, to, 'deposit', b.amount, merchant.brand.gmtOffsetMinutes);
          } catch (e) {
            if (e instanceof AppError && e.code === ErrorCode.RG_LIMIT_REACHED) throw new AppError(ErrorCode.DOWNLINE_LIMIT_REACHED);
            // Excluded since the lookup above: answered as for anyone outside the agent's lists.
            if (e instanceof AppError && e.code === ErrorCode.RG_EXCLUDED) throw new AppError(ErrorCode.NOT_IN_TREE);
            throw e;
          }
        }
      }
      const t = await transfer(tx, {
        merchant: merchant.code, currency: merchant.currency, key: `mtransfer:${from.memberId}:${b.requestId}`, kind: `transfer_${b.direction}`,
        debit: { member: from.memberId }, credit: { member: to }, amount: b.amount, memo: { requestId: b.requestId },
      });
      await tx.query(
        `INSERT INTO member_transfers (merchant_code, direction, from_member_id, to_member_id, amount, request_id, transfer_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (from_member_id, request_id) DO NOTHING`,
        [merchant.code, b.direction, from.memberId, to, b.amount, b.requestId, t.transferId],
      );
      const row = (await tx.query<TransferRow>(`${SELECT} WHERE t.from_member_id = $1 AND t.request_id = $2`, [from.memberId, b.requestId])).rows[0]!;
      return toTransfer(row, from.memberId);
    });
  }

  async function list(memberId: number, pageNo: number, pageSize: number) {
    const r = await db.query<TransferRow>(
      `${SELECT} WHERE t.from_member_id = $1 OR t.to_member_id = $1 ORDER BY t.id DESC LIMIT $2 OFFSET $3`,
      [memberId, pageSize, (pageNo - 1) * pageSize],
    );
    const n = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM member_transfers WHERE from_member_id = $1 OR to_member_id = $1', [memberId]);
    return { list: r.rows.map((x) => toTransfer(x, memberId)), pageNo, pageSize, total: n.rows[0]!.n };
  }

  return { send, list, isInTree };
}
