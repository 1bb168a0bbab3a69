import { randomBytes } from 'node:crypto';
import type { Express } from 'express';
import type { Logger } from 'pino';
import type { Config } from '../../app/config.ts';
import type { Db } from '../../db/db.ts';
import type { JobQueue } from '../../jobs/job-queue.ts';
import type { MerchantDirectory } from '../merchants/merchant-directory.ts';
import type { PasswordHasher } from '../auth/password-hasher.ts';
import type { RateLimiter } from '../auth/rate-limit.ts';
import { mountWalletRoutes } from '../wallet/wallet-routes.ts';
import { createTransfers } from '../wallet/transfers.ts';
import { createOperators } from '../ops/operators.ts';
import { mountOpsRoutes, type MemberAccounts } from '../ops/ops-routes.ts';
import type { Rg } from '../rg/rg-service.ts';
import { createSimProvider, type PaymentProvider } from './payment-provider.ts';
import { createDeposits } from './deposits.ts';
import { createWithdrawals } from './withdrawals.ts';
import { mountCashierRoutes, mountPaymentCallbacks } from './cashier-routes.ts';

/** How often the auto-receive job looks for due withdrawals (one run per period across all nodes). */
export const AUTO_RECEIVE_EVERY_MS = 5000;
/** The job queue's name of the auto-receive job; its keys are the periods' start times. */
export const AUTO_RECEIVE_JOB = 'withdrawal.auto-receive';
/** The deposit order expiry job (deposits.runExpire), once a minute across all nodes. */
export const DEPOSIT_EXPIRE_JOB = 'cashier.deposit.expire';
export const DEPOSIT_EXPIRE_EVERY_MS = 60_000;

/**
 * Wallet, cashier and back office wiring: member calls go into the /wps router, the provider
 * callbacks, the simulator's pay page and /ops/api onto the app (ahead of the /wps router and
 * the SPA fallback), and the auto-receive job, a recurring job of the portal's job queue (one run per
 * AUTO_RECEIVE_EVERY_MS period across all nodes; the job itself stays safe to overlap: SKIP LOCKED).
 */
export async function createCashierModule(deps: { config: Config; db: Db; log: Logger; hasher: PasswordHasher; limiter: RateLimiter; merchants: MerchantDirectory; accounts: MemberAccounts }) {
  const { config, db, log, hasher, limiter, merchants } = deps;
  const symbols = new Map<string, string>();
  for (const m of await merchants.all()) symbols.set(m.code, m.brand.currencySymbol);
  const symbolOf = (code: string) => symbols.get(code) ?? '';

  const providers = new Map<string, PaymentProvider>();
  // The simulator is a development helper (its Pay button credits whoever presses it; its pages answer
  // loopback clients only) and never runs in production (assertSafeConfig refuses PAYMENT_SIM_SECRET
  // there). It signs with PAYMENT_SIM_SECRET, else a secret generated per process.
  const simSecret = config.isProduction ? null : config.PAYMENT_SIM_SECRET ?? randomBytes(32).toString('hex');
  const sim = simSecret ? createSimProvider(db, simSecret, log) : null;
  if (sim) providers.set(sim.provider.code, sim.provider);

  // The demo seed's made-up receiving account for manual bank deposits goes to demo merchants only.
  const deposits = createDeposits({ db, providers, symbolOf, demoBank: config.SEED === 'demo' });
  const withdrawals = createWithdrawals({ db, hasher, limiter, symbolOf });
  const transfers = createTransfers({ db, verifyWithdrawPassword: withdrawals.verifyWithdrawPassword });
  const operators = createOperators({ db, hasher, limiter });
  if (config.SEED === 'demo') await operators.ensureDemoOperator();

  return {
    deposits, withdrawals, transfers, operators, providers, simSecret,
    /** Mount everything; call where the /wps routes are mounted, before the app's /wps router and the SPA fallback. */
    mount(wps: Express, app: Express, opts: { checkResponses: boolean; regionHeader?: string | null; rg?: Rg | null; providers?: { sms: boolean; mail: boolean } }) {
      mountWalletRoutes(wps, { db, transfers }, opts);
      mountCashierRoutes(wps, { deposits, withdrawals }, opts);
      mountPaymentCallbacks(app, { db, deposits, providers, log });
      sim?.mountPages(app);
      mountOpsRoutes(app, { db, merchants, operators, deposits, withdrawals, accounts: deps.accounts, checkResponses: opts.checkResponses, regionHeader: opts.regionHeader ?? null, rg: opts.rg ?? null, ...(opts.providers ? { providers: opts.providers } : {}), launchHttpsOnly: config.isProduction });
    },
    /**
     * Register the auto-receive and deposit-expiry jobs. A failed period is not retried: the next one, a few seconds later,
     * takes every due withdrawal anyway. Done periods are kept an hour (they are thousands a day).
     */
    registerJobs(jobs: JobQueue) {
      jobs.define(AUTO_RECEIVE_JOB, async () => {
        const n = await withdrawals.runAutoReceive();
        if (n) log.info({ count: n }, 'withdrawals auto-received');
      }, { maxAttempts: 1 });
      jobs.schedule(AUTO_RECEIVE_JOB, { everyMs: AUTO_RECEIVE_EVERY_MS }, { catchUpMs: 0, keepMs: 3600_000 });
      jobs.define(DEPOSIT_EXPIRE_JOB, async () => {
        // Paid at the provider but never told (a lost callback): credited first, never expired.
        const c = await deposits.runReconcile();
        if (c) log.warn({ count: c }, 'deposit orders credited from the provider order query (their callback was lost)');
        const n = await deposits.runExpire();
        if (n) log.info({ count: n }, 'deposit orders expired');
      }, { maxAttempts: 1 });
      jobs.schedule(DEPOSIT_EXPIRE_JOB, { everyMs: DEPOSIT_EXPIRE_EVERY_MS }, { catchUpMs: 0, keepMs: 3600_000 });
    },
  };
}
export type CashierModule = Awaited<ReturnType<typeof createCashierModule>>;
