/**
 * The ledger bench's fault run (used by tests/bench/ledger.ts): the real gateway as a child process
 * (`node --import tsx gateway/src/main.ts`) on the bench database, K clients moving money through
 * the vendor seamless-wallet API (signed bet/win calls, idempotent on transactionId), the gateway
 * killed with SIGKILL every few seconds and started again, every request retried with the SAME
 * transaction id until it gets an answer. Afterwards every acknowledged call must be in the ledger
 * exactly once with its amount, and each member's balance must equal seed + acked wins - acked bets.
 */
import type { ChildProcess } from 'node:child_process';
import { randomInt } from 'node:crypto';
import type { Db } from '../../gateway/src/db/db.ts';
import { checkLedger, type Violation } from '../../gateway/src/modules/wallet/ledger.ts';
import { checkCashier } from '../../gateway/src/modules/cashier/invariants.ts';
import { sleep, wallMs } from './common.ts';
import { MERCHANT, type Accounts } from './ledger-load.ts';
import { freePort, killChild, setupVendor, startGateway, vendorHeaders } from './pg-gateway.ts';

export const VENDOR = 'LBENCH';

export type FaultSpec = {
  url: string;
  root: string;
  clients: number;
  members: number;
  kills: number;
  killEveryMs: number;
  /** after the last restart, load continues this long before the clients stop */
  tailMs: number;
  /** children get registered here so the bench kills them on exit */
  track: (c: ChildProcess) => void;
  untrack: (c: ChildProcess) => void;
  log: (s: string) => void;
};

export type FaultResult = {
  requests: number;
  acked: number;
  ackedBets: number;
  ackedWins: number;
  refused: number;
  retries: number;
  connectionErrors: number;
  serverErrors: number;
  kills: number;
  restarts: number;
  restartMs: number[];
  unfinished: number;
  replayedAcks: number;
  ackedPerSec: number;
  checks: {
    ackedMissing: number;
    ackedDuplicated: number;
    ackedWrongAmount: number;
    unackedPresentTwice: number;
    vendorRowsNotOne: number;
    balanceMismatches: number;
    ledgerViolations: Violation[];
    cashierViolations: Violation[];
  };
  ok: boolean;
  gatewayStderrTail: string;
};

type Op = { txId: string; kind: 'bet' | 'win'; member: number; token: string; amount: number; round: string };

export async function runFault(db: Db, acc: Accounts, spec: FaultSpec): Promise<FaultResult> {
  const tag = `${process.pid}${Date.now().toString(36)}`;
  // The vendor account and one live game session per member (the token a launch would hand the vendor).
  const members = acc.memberIds.slice(-spec.members);
  const { secret, tokens } = await setupVendor(db, MERCHANT, VENDOR, members);
  const startBalance = new Map<number, number>();
  for (const r of (await db.query<{ member_id: number; balance: number }>('SELECT member_id, balance FROM ledger_accounts WHERE member_id = ANY($1)', [members])).rows)
    startBalance.set(r.member_id, r.balance);

  // ---- the gateway child: started, killed with SIGKILL, started again
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  let gw: ChildProcess | null = null;
  let stderrTail = '';
  let restarts = 0;
  const restartMs: number[] = [];
  const start = async () => {
    const r = await startGateway({
      root: spec.root, url: spec.url, port, nodeId: `ledger-bench-${tag}`, track: spec.track, untrack: spec.untrack,
      onStderr: (t) => (stderrTail = (stderrTail + t).slice(-2000)),
    });
    gw = r.child;
    restartMs.push(r.readyMs);
  };
  const kill = () => killChild(gw);

  // ---- the clients
  const acked = new Map<string, { op: Op; replayed: boolean }>();
  const refused = new Map<string, string>();
  const attempted = new Map<string, Op>();
  let requests = 0;
  let retries = 0;
  let connectionErrors = 0;
  let serverErrors = 0;
  let stopping = false;
  let seq = 0;

  const call = async (op: Op): Promise<{ status: number; json: { success: boolean; code?: string; value?: { replayed?: boolean } } }> => {
    const body = op.kind === 'bet'
      ? { transactionId: op.txId, playerId: String(op.member), roundId: op.round, gameCode: 'G1', amount: op.amount, token: op.token }
      : { transactionId: op.txId, playerId: String(op.member), roundId: op.round, gameCode: 'G1', amount: op.amount };
    const raw = JSON.stringify(body);
    const res = await fetch(`${base}/vendor/v1/${VENDOR}/${op.kind}`, {
      method: 'POST',
      headers: vendorHeaders(MERCHANT, secret, raw),
      body: raw,
      signal: AbortSignal.timeout(10_000),
    });
    return { status: res.status, json: (await res.json()) as never };
  };

  /** Send one op until the gateway answers it (bounded: 60 s of retries); same transaction id every time. */
  const settle = async (op: Op) => {
    attempted.set(op.txId, op);
    const t0 = wallMs();
    for (let attempt = 0; ; attempt++) {
      if (attempt) retries++;
      requests++;
      try {
        const r = await call(op);
        if (r.status === 200 && r.json.success) {
          acked.set(op.txId, { op, replayed: !!r.json.value?.replayed });
          return;
        }
        if (r.status >= 400 && r.status < 500) {
          refused.set(op.txId, r.json.code ?? String(r.status));
          return;
        }
        serverErrors++; // 5xx: e.g. the database connection of a dying request; retry
      } catch {
        connectionErrors++; // refused / reset / timeout while the gateway is down: retry
      }
      if (wallMs() - t0 > 60_000) return; // left unfinished (counted below)
      await sleep(50 + randomInt(100));
    }
  };

  const client = async (c: number) => {
    while (!stopping) {
      const i = randomInt(members.length);
      const member = members[i]!;
      const round = `r${tag}-${c}-${++seq}`;
      // a round: a bet, then (half the time) a win; a win needs its round's bet (the wallet refuses one without)
      const betId = `${tag}-${c}-${seq}-b`;
      await settle({ txId: betId, kind: 'bet', member, token: tokens[i]!, amount: 1 + randomInt(500), round });
      if (acked.has(betId) && Math.random() < 0.5) await settle({ txId: `${tag}-${c}-${seq}-w`, kind: 'win', member, token: tokens[i]!, amount: 1 + randomInt(900), round });
    }
  };

  await start();
  spec.log(`gateway up on ${base} in ${(restartMs[0]! / 1000).toFixed(1)} s; ${spec.clients} clients, kill -9 every ${spec.killEveryMs / 1000} s x${spec.kills}`);
  const t0 = wallMs();
  const clients = Array.from({ length: spec.clients }, (_, c) => client(c));
  let kills = 0;
  try {
    for (let k = 0; k < spec.kills; k++) {
      await sleep(spec.killEveryMs);
      await kill();
      kills++;
      const before = acked.size;
      await start();
      restarts++;
      spec.log(`kill ${kills}: SIGKILL, restarted in ${(restartMs.at(-1)! / 1000).toFixed(1)} s (acks so far ${before})`);
    }
    await sleep(spec.tailMs);
  } finally {
    stopping = true;
    await Promise.all(clients);
  }
  const elapsed = (wallMs() - t0) / 1000;
  await kill();

  // ---- verification, straight from the database
  const keys = [...attempted.keys()].map((id) => `vendor:${VENDOR}:${id}`);
  const rows = (await db.query<{ key: string; n: number; amount: number; kind: string; acc_member: number | null }>(
    `SELECT t.idempotency_key AS key, count(*) OVER (PARTITION BY t.idempotency_key)::int AS n, t.amount, t.kind,
            CASE WHEN t.kind = 'bet' THEN d.member_id ELSE c.member_id END AS acc_member
     FROM ledger_transfers t JOIN ledger_accounts d ON d.id = t.debit_account_id JOIN ledger_accounts c ON c.id = t.credit_account_id
     WHERE t.merchant_code = $1 AND t.idempotency_key = ANY($2)`,
    [MERCHANT, keys],
  )).rows;
  const byKey = new Map<string, (typeof rows)[number][]>();
  for (const r of rows) byKey.set(r.key, [...(byKey.get(r.key) ?? []), r]);
  const vendorRows = new Map((await db.query<{ transaction_id: string; n: number }>(
    'SELECT transaction_id, count(*)::int AS n FROM vendor_transactions WHERE merchant_code = $1 AND vendor = $2 GROUP BY transaction_id', [MERCHANT, VENDOR],
  )).rows.map((r) => [r.transaction_id, r.n]));
  let ackedMissing = 0, ackedDuplicated = 0, ackedWrongAmount = 0, unackedPresentTwice = 0, vendorRowsNotOne = 0;
  const expected = new Map(startBalance);
  for (const [txId, { op }] of acked) {
    const found = byKey.get(`vendor:${VENDOR}:${txId}`) ?? [];
    if (found.length === 0) ackedMissing++;
    else if (found.length > 1) ackedDuplicated++;
    else if (found[0]!.amount !== op.amount || found[0]!.kind !== op.kind || found[0]!.acc_member !== op.member) ackedWrongAmount++;
    if (vendorRows.get(txId) !== 1) vendorRowsNotOne++;
    expected.set(op.member, expected.get(op.member)! + (op.kind === 'bet' ? -op.amount : op.amount));
  }
  for (const txId of attempted.keys()) if (!acked.has(txId) && (byKey.get(`vendor:${VENDOR}:${txId}`)?.length ?? 0) > 1) unackedPresentTwice++;
  // every call was retried to an answer, so each balance must be exactly seed + acked wins - acked bets
  const unfinished = [...attempted.keys()].filter((id) => !acked.has(id) && !refused.has(id)).length;
  let balanceMismatches = 0;
  if (unfinished === 0) {
    for (const r of (await db.query<{ member_id: number; balance: number }>('SELECT member_id, balance FROM ledger_accounts WHERE member_id = ANY($1)', [members])).rows)
      if (expected.get(r.member_id) !== r.balance) balanceMismatches++;
  }
  const ledgerViolations = await checkLedger(db);
  const cashierViolations = await checkCashier(db);
  const checks = { ackedMissing, ackedDuplicated, ackedWrongAmount, unackedPresentTwice, vendorRowsNotOne, balanceMismatches, ledgerViolations, cashierViolations };
  const ops = [...acked.values()];
  return {
    requests, acked: acked.size, ackedBets: ops.filter((a) => a.op.kind === 'bet').length, ackedWins: ops.filter((a) => a.op.kind === 'win').length,
    refused: refused.size, retries, connectionErrors, serverErrors, kills, restarts, restartMs, unfinished,
    replayedAcks: ops.filter((a) => a.replayed).length,
    ackedPerSec: acked.size / elapsed,
    checks,
    ok: ackedMissing + ackedDuplicated + ackedWrongAmount + unackedPresentTwice + vendorRowsNotOne + balanceMismatches + unfinished + refused.size === 0 &&
      ledgerViolations.length === 0 && cashierViolations.length === 0,
    gatewayStderrTail: stderrTail,
  };
}
