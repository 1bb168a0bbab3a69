/**
 * Wagering progress under load (issue 14): bets at a target rate (default 1,000/s) through the signed
 * vendor API (/vendor/v1/:vendor/bet) of a real gateway on PostgreSQL, for members with an active
 * bonus, and the lag from each bet's commit to the `bonus.progress` event that counts it; beside a
 * bare baseline: the same bets for members without a bonus, and the lag from commit to a consumer of
 * the bet stream that does nothing (the stream's own cost, no wagering work).
 *
 * - A throwaway database (pg-gateway.ts preparePg; DATABASE_URL: that database), the gateway in this
 *   process (createPortal with the demo seed, small catalogue), members with balances (ledger-load.ts
 *   seedAccounts), a vendor account with one game session per member (setupVendor). The HTTP bets come
 *   from a client process of their own (this file forked with WAGERING_ROLE=client), as a vendor's
 *   servers are elsewhere: the gateway's node does not share its core with the load it serves.
 * - Bonus members: a request promotion approved for each (a bonus under wagering, requirement far
 *   above what the run bets, so no conversion).
 * - Each member has at most one bet in flight, so its k-th bet's expected cumulative progress is known;
 *   "commit" = the vendor call answered (the bet's transaction committed before the answer; the client
 *   process's clock, wallMs, is the machine's); "seen" = the first bonus.progress committed
 *   (onLocalCommit) with progress at or above that sum. Events that commit before the answer arrives
 *   count as lag 0.
 * - Bare phase: "seen" = the commit of the bet-stream batch that handed the bet to a no-op consumer.
 *
 * Exported: `engagementWageringBench(opts)` (the lead wires it into `npm run bench -- --engagement`).
 * Standalone: `node --import tsx tests/bench/engagement-wagering.ts [--rate R] [--seconds S] [--members N]`.
 */
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';
import { loadConfig } from '../../gateway/src/app/config.ts';
import { createPortal } from '../../gateway/src/app/create-app.ts';
import { onLocalCommit } from '../../gateway/src/bus/outbox.ts';
import { checkLedger } from '../../gateway/src/modules/wallet/ledger.ts';
import { seedDemoMissions } from '../../gateway/src/modules/missions/missions-service.ts';
import { latencyStats, sleep, wallMs, type LatencyStats } from './common.ts';
import { MERCHANT, seedAccounts } from './ledger-load.ts';
import { preparePg, setupVendor, vendorHeaders } from './pg-gateway.ts';

const VENDOR = 'WBENCH';
const BET = 100; // minor units per bet; game type unknown to the catalogue: weight 100%

export type WageringPhase = { name: 'bare' | 'wagering' | 'wagering-service'; targetRate: number; sent: number; answered: number; failed: number; achievedRate: number; lag: LatencyStats; unseen: number; missionLag: LatencyStats | null; missionUnseen: number };
export type WageringBenchResult = { members: number; seconds: number; phases: WageringPhase[]; ledgerViolations: number };

export async function engagementWageringBench(opts: { rate?: number; seconds?: number; members?: number; log?: (s: string) => void } = {}): Promise<WageringBenchResult> {
  const rate = opts.rate ?? 1000;
  const seconds = opts.seconds ?? 10;
  const members = opts.members ?? 600;
  const log = opts.log ?? ((s: string) => console.log(s));
  const pgdb = await preparePg('wagerbench');
  const config = loadConfig({
    NODE_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL: pgdb.url, PORT: '0', HOST: '127.0.0.1', SEED: 'demo', SEED_CATALOGUE: 'small', RELAY_POLL_MS: '50', ...(process.env.DB_POOL_SIZE ? { DB_POOL_SIZE: process.env.DB_POOL_SIZE } : {}),
  });
  const portal = await createPortal(config);
  const port = await portal.listen(0, '127.0.0.1');
  try {
    const db = portal.db;
    const bare = await seedAccounts(db, members, `wb${randomBytes(2).toString('hex')}`);
    const bonus = await seedAccounts(db, members, `wg${randomBytes(2).toString('hex')}`);
    const direct = await seedAccounts(db, members, `wd${randomBytes(2).toString('hex')}`);
    const bareIds = bare.memberIds;
    const bonusIds = bonus.memberIds;
    const directIds = direct.memberIds;
    const all = [...bareIds, ...bonusIds, ...directIds];
    const merchant = (await portal.merchants.byCode(MERCHANT))!;
    const { secret, tokens } = await setupVendor(db, MERCHANT, VENDOR, all);
    const tokenOf = new Map(all.map((m, i) => [m, tokens[i]!]));

    // Bonuses under wagering for the bonus members: requirement 100 x 10,000,000.00, never met here.
    const op = await portal.cashier.operators.createOperator(MERCHANT, `wbench${Date.now() % 100000}`, randomBytes(12).toString('hex'), ['administrator']);
    const promo = await portal.promos.create(op, MERCHANT, {
      category: 'special', kind: 'request', title: { EN: 'Bench', TY: 'Bench' }, rules: { EN: 'Bench', TY: 'Bench' }, startsAt: new Date(Date.now() - 60_000).toISOString(),
      endsAt: null, enabled: true, requiresJoin: false, rewardAmount: 1_000_000_000, rewardBps: 0, rewardCap: null, minDeposit: 0, wageringBonusX: 100, wageringDepositX: 0,
      weights: {}, rebateBps: {}, bonusDays: 7, drawAt: null, winners: null,
    });
    for (const [i, m] of [...bonusIds, ...directIds].entries()) {
      const r = await portal.promos.requestReward(MERCHANT, { memberId: m, account: `wg${i}` }, Number(promo.id), '', 'EN');
      await portal.promos.decide(op, MERCHANT, Number(r.reward.id), { approve: true, reason: '' });
    }
    await portal.betStream.drainNow();

    // Mission progress: the demo seed's daily "Bet 500.00 today" (valid_bet, every game type) counts
    // each bet's amount; 500 bets of 1.00 complete it, more than a member makes here.
    // (NODE_ENV=test does not seed them: seeded here as a portal started with the demo seed has them.)
    const findMission = async () => (await db.query<{ id: string }>(
      `SELECT id::text FROM missions WHERE merchant_code = $1 AND period = 'daily' AND kind = 'valid_bet' AND game_type IS NULL AND enabled ORDER BY id LIMIT 1`, [MERCHANT])).rows[0]?.id ?? null;
    if (!(await findMission())) await seedDemoMissions(db, MERCHANT);
    const mission = await findMission();

    // Every bonus.progress and mission.progress committed, per member, in commit order (progress only
    // rises): after a phase each answered bet is matched with the first event that counts it.
    type Seen = Array<[progress: number, at: number]>;
    const bonusSeen = new Map<number, Seen>();
    const missionSeen = new Map<number, Seen>();
    const bareSeen = new Map<string, number>();
    const note = (map: Map<number, Seen>, member: number, progress: number, at: number) => {
      const list = map.get(member) ?? [];
      list.push([progress, at]);
      map.set(member, list);
    };
    const stopEvents = onLocalCommit(db, (events) => {
      const now = wallMs();
      for (const e of events) {
        if (e.type === 'mission.progress' && (e.payload as { missionId: string }).missionId === mission) {
          note(missionSeen, Number(e.audience.slice(5)), (e.payload as { progress: number }).progress, now);
        } else if (e.type === 'bonus.progress') {
          note(bonusSeen, Number(e.audience.slice(5)), (e.payload as { wagerProgress: number }).wagerProgress, now);
        }
      }
    });
    /** Lag of each answered bet to the first event of `map` that counts it (0 when it committed before the answer), and how many none counted. */
    const lagsOf = (map: Map<number, Seen>, answers: readonly Answer[]) => {
      const out: number[] = [];
      let unseen = 0;
      for (const a of answers) {
        const hit = map.get(a.m)?.find(([progress]) => progress >= a.sum);
        if (hit) out.push(Math.max(0, hit[1] - a.at));
        else unseen++;
      }
      return { lags: out, unseen };
    };
    portal.betStream.register({
      name: 'bench.bare',
      async handle(tx, facts) {
        const ids = facts.filter((f) => f.fact === 'bet' && f.vendor === VENDOR).map((f) => f.transactionId);
        if (ids.length) tx.afterCommit(() => { const now = wallMs(); for (const id of ids) bareSeen.set(id, now); });
      },
    });

    const phases: WageringPhase[] = [];
    // bare and wagering: the bets come over HTTP from a client process of their own (as a vendor's
    // servers are elsewhere), so the gateway's node has this process's core to itself.
    // wagering-service: the same bets for a third set of bonus members, made by calling the vendor
    // wallet's bet (what the vendor route runs after its signature and body checks: the responsible-
    // gaming check and vendor_money in one transaction, then the bet stream's wake) from this process,
    // without HTTP: the engagement pipeline's own capacity, when the HTTP path cannot bring the rate.
    const client = await startClient();
    try {
      for (const name of ['bare', 'wagering', 'wagering-service'] as const) {
        const ids = name === 'bare' ? bareIds : name === 'wagering' ? bonusIds : directIds;
        const r: PhaseRun = name === 'wagering-service'
          ? await drivePhase(ids, rate, seconds, name, (m, tx) =>
            portal.vendorWallet.bet(merchant, VENDOR, { transactionId: tx, playerId: String(m), roundId: tx, gameCode: 'G1', amount: BET, token: tokenOf.get(m)! }).then(() => undefined))
          : await client.run({ port, secret, members: ids.map((m) => [m, tokenOf.get(m)!]), rate, seconds, name });
        await portal.betStream.drainNow();
        await sleep(300);
        let lag: { lags: number[]; unseen: number };
        if (name === 'bare') {
          const lags: number[] = [];
          for (const a of r.answers) {
            const seen = bareSeen.get(a.tx);
            if (seen !== undefined) lags.push(Math.max(0, seen - a.at));
          }
          lag = { lags, unseen: r.answers.length - lags.length };
        } else lag = lagsOf(bonusSeen, r.answers);
        const m = mission ? lagsOf(missionSeen, r.answers) : null;
        const phase: WageringPhase = {
          name, targetRate: rate, sent: r.sent, answered: r.answers.length, failed: r.failed, achievedRate: Math.round(r.answers.length / r.elapsed),
          lag: latencyStats(lag.lags), unseen: lag.unseen, missionLag: m ? latencyStats(m.lags) : null, missionUnseen: m?.unseen ?? 0,
        };
        phases.push(phase);
        log(`${name.padEnd(8)} target ${rate}/s achieved ${phase.achievedRate}/s answered ${phase.answered} failed ${phase.failed} | lag ms p50 ${phase.lag.p50.toFixed(1)} p99 ${phase.lag.p99.toFixed(1)} max ${phase.lag.max.toFixed(1)} (n=${phase.lag.count}, unseen ${phase.unseen})${phase.missionLag ? ` | mission lag p99 ${phase.missionLag.p99.toFixed(1)} (unseen ${phase.missionUnseen})` : ''}`);
      }
    } finally {
      client.stop();
    }
    stopEvents();
    const violations = await checkLedger(db);
    return { members, seconds, phases, ledgerViolations: violations.length };
  } finally {
    await portal.stop();
    await pgdb.drop();
  }
}

/** One answered bet: its member, that member's bet sum with it, its transaction id and when it was answered (wallMs). */
type Answer = { m: number; sum: number; tx: string; at: number };
type PhaseRun = { sent: number; failed: number; elapsed: number; answers: Answer[] };
type ClientRun = { port: number; secret: string; members: Array<[number, string]>; rate: number; seconds: number; name: string };

/**
 * An open loop paced in 5 ms ticks at `rate` bets/s for `seconds`, round the members, each with at
 * most one bet in flight (a member with one is skipped), so each member's k-th answered bet has sum
 * k x BET (a failed bet is taken out of its member's sum).
 */
async function drivePhase(ids: readonly number[], rate: number, seconds: number, name: string, bet: (m: number, tx: string) => Promise<void>): Promise<PhaseRun> {
  const busy = new Set<number>();
  const sums = new Map<number, number>();
  const answers: Answer[] = [];
  let sent = 0, failed = 0, next = 0;
  const started = wallMs();
  const end = started + seconds * 1000;
  const inflight = new Set<Promise<void>>();
  const fire = (m: number) => {
    busy.add(m);
    const tx = `${name}-${m}-${sent++}-${randomBytes(3).toString('hex')}`;
    const sum = (sums.get(m) ?? 0) + BET;
    sums.set(m, sum);
    const p = bet(m, tx)
      .then(() => void answers.push({ m, sum, tx, at: wallMs() }))
      .catch(() => {
        failed++;
        sums.set(m, (sums.get(m) ?? BET) - BET);
      })
      .finally(() => {
        busy.delete(m);
        inflight.delete(p);
      });
    inflight.add(p);
  };
  while (wallMs() < end) {
    const due = Math.floor(((wallMs() - started) / 1000) * rate);
    let tries = 0;
    while (sent < due && tries < ids.length) {
      const m = ids[next++ % ids.length]!;
      tries++;
      if (!busy.has(m)) fire(m);
    }
    await sleep(5);
  }
  const elapsed = (wallMs() - started) / 1000;
  await Promise.all(inflight);
  return { sent, failed, elapsed, answers };
}

/** The HTTP load client: this file forked with WAGERING_ROLE=client, one phase per message. */
async function startClient() {
  const proc = fork(fileURLToPath(import.meta.url), [], { execArgv: ['--import', 'tsx'], env: { ...process.env, WAGERING_ROLE: 'client' }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  await new Promise<void>((resolve, reject) => {
    proc.once('message', () => resolve());
    proc.once('exit', (code) => reject(new Error(`wagering client exited (${code}) while starting`)));
  });
  return {
    run: (args: ClientRun) => new Promise<PhaseRun>((resolve, reject) => {
      const onExit = (code: number | null) => reject(new Error(`wagering client exited (${code})`));
      proc.once('exit', onExit);
      proc.once('message', (r: PhaseRun) => {
        proc.off('exit', onExit);
        resolve(r);
      });
      proc.send(args);
    }),
    stop: () => proc.kill(),
  };
}

if (process.env.WAGERING_ROLE === 'client') {
  process.on('message', async (a: ClientRun) => {
    const tokens = new Map(a.members);
    const pool = new Pool(`http://127.0.0.1:${a.port}`, { connections: 64, pipelining: 1 });
    try {
      process.send!(await drivePhase(a.members.map(([m]) => m), a.rate, a.seconds, a.name, async (m, tx) => {
        const raw = JSON.stringify({ transactionId: tx, playerId: String(m), roundId: tx, gameCode: 'G1', amount: BET, token: tokens.get(m)! });
        const res = await pool.request({ path: `/vendor/v1/${VENDOR}/bet`, method: 'POST', headers: vendorHeaders(MERCHANT, a.secret, raw), body: raw, headersTimeout: 30_000, bodyTimeout: 30_000 });
        const text = await res.body.text();
        if (res.statusCode !== 200 || !text.includes('"success":true')) throw new Error(text.slice(0, 200));
      }));
    } finally {
      await pool.close();
    }
  });
  process.on('disconnect', () => process.exit(0));
  process.send!('ready');
} else if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const argv = process.argv.slice(2);
  const arg = (name: string) => {
    const i = argv.indexOf(name);
    return i >= 0 ? Number(argv[i + 1]) : undefined;
  };
  const r = await engagementWageringBench({ rate: arg('--rate'), seconds: arg('--seconds'), members: arg('--members') });
  console.log(JSON.stringify(r, null, 2));
  process.exit(r.ledgerViolations === 0 ? 0 : 1);
}
