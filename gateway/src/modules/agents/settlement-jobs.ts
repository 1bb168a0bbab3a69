import type { Logger } from 'pino';
import type { ContractKind } from '@portal/contracts/domain/agent-contracts';
import type { JobQueue } from '../../jobs/job-queue.ts';
import type { AgentSettlement } from './settlement.ts';

/**
 * The settlement jobs on the portal's job queue (one run per period across nodes). Each run settles,
 * for every merchant, the periods of its kind that closed (plus SETTLEMENT_GRACE_MS) and are not
 * settled yet, within a bounded look-back (catch-up after an outage); a period is settled exactly
 * once by settleOne's run marker, so an overlapping or repeated run changes nothing. Cron minutes
 * sit just after the period ends (past the grace). Daily wages and dividends run every hour: a
 * merchant's midnight is at any whole or half hour of UTC (its GMT offset), and the run settles
 * whatever closed.
 */
export const SETTLEMENT_JOBS: Record<ContractKind, { name: string; cron: string }> = {
  realtimeSalary: { name: 'agent.settle.realtimeSalary', cron: '2,7,12,17,22,27,32,37,42,47,52,57 * * * *' },
  hourlySalary: { name: 'agent.settle.hourlySalary', cron: '2,32 * * * *' },
  dailyWages: { name: 'agent.settle.dailyWages', cron: '3,33 * * * *' },
  dividend: { name: 'agent.settle.dividend', cron: '4,34 * * * *' },
};

export function registerSettlementJobs(jobs: JobQueue, settlement: AgentSettlement, log: Logger) {
  for (const [kind, job] of Object.entries(SETTLEMENT_JOBS) as [ContractKind, { name: string; cron: string }][]) {
    jobs.define(job.name, async () => {
      const { settled, failed } = await settlement.settleDue(new Date(), [kind]);
      if (settled.length) log.info({ kind, periods: settled.length, payouts: settled.reduce((a, s) => a + s.inserted, 0) }, 'agent periods settled');
      if (failed.length) {
        log.error({ kind, failed }, 'agent periods not settled');
        throw new Error(`${failed.length} ${kind} period(s) not settled: ${failed[0]!.merchantCode} ${failed[0]!.periodKey}: ${failed[0]!.error}`);
      }
    }, { maxAttempts: 3 });
    jobs.schedule(job.name, { cron: job.cron }, { catchUpMs: 3600_000, keepMs: 7 * 86_400_000 });
  }
}
