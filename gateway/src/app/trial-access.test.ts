import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authCalls, oidcCalls } from '@portal/contracts/api/auth';
import { betsCalls } from '@portal/contracts/api/bets';
import { cashierCalls } from '@portal/contracts/api/cashier';
import { catalogueCalls, gameCalls } from '@portal/contracts/api/games';
import { launchCall } from '@portal/contracts/api/vendor';
import { walletCalls } from '@portal/contracts/api/wallet';
import { contentCalls } from '@portal/contracts/api/content';
import { systemCalls } from '@portal/contracts/api/system';
import { FEEDBACK_PATHS, feedbackCalls } from '@portal/contracts/api/feedback';
import { referralCalls } from '@portal/contracts/api/referral';
import { profitCalls } from '@portal/contracts/api/profit';
import { missionCalls } from '@portal/contracts/api/missions';
import { chatCalls } from '@portal/contracts/api/chat';
import { api, startTestPortal, type TestPortal } from '../testing/test-portal.ts';

/**
 * Issue 10, finding 8: a trial (free-play) session could read member-centre calls the spec closes to
 * trial accounts ("cannot open member or account centres"). Every member call of the contract is
 * listed here from the contract itself, so a new one cannot be forgotten.
 */
type Call = { method: string; path: string; auth: boolean; trial?: true };
const ALL: Record<string, Call> = Object.fromEntries(
  Object.entries({ authCalls, oidcCalls, betsCalls, cashierCalls, catalogueCalls, gameCalls, walletCalls, contentCalls, systemCalls, launch: { launchCall },
    feedbackCalls, referralCalls, profitCalls, missionCalls, chatCalls, feedbackUpload: { send: { method: 'PUT', path: FEEDBACK_PATHS.send, auth: true } } })
    .flatMap(([group, calls]) => Object.entries(calls as Record<string, Call>).map(([name, c]) => [`${group}.${name}`, c])),
);
const MEMBER_ONLY = Object.entries(ALL).filter(([, c]) => c.auth && !c.trial);
/** Logout ends the shared trial session: it has a test of its own below. */
const TRIAL_OPEN = Object.entries(ALL).filter(([name, c]) => c.auth && c.trial && name !== 'authCalls.logout');

let t: TestPortal;
let trial: string;
let real: string;
beforeAll(async () => {
  t = await startTestPortal();
  trial = (await api<{ token: string }>(t.url, '/wps/session/login/freeplay', { body: { platform: 'W' } })).json!.value!.token;
  const id = (await api<{ memberId: number }>(t.url, '/wps/dev/members', { body: { account: 'centre01', password: 'abc12345' } })).json!.value!.memberId;
  const m = await t.portal.db.query<{ merchant_code: string }>('SELECT merchant_code FROM members WHERE id = $1', [id]);
  real = await t.portal.sessions.create(id, m.rows[0]!.merchant_code);
});
afterAll(async () => {
  await t.stop();
});

const urlOf = (c: Call) => c.path.replace(/:id\b/, '1');
const send = (c: Call, token: string) => api(t.url, urlOf(c), { method: c.method, token, ...(c.method === 'GET' || c.method === 'DELETE' ? {} : { body: {} }) });

describe('trial sessions and the member centre', () => {
  it('the contract closes the member-centre calls to trials', () => {
    // the spec's member and account centre: wallet and betting records, cashier, security centre, messages
    for (const name of [
      'walletCalls.records', 'walletCalls.transfer', 'walletCalls.transfers', 'walletCalls.unreadCount', 'walletCalls.messages', 'walletCalls.markRead',
      'betsCalls.list', 'cashierCalls.channels', 'cashierCalls.createDeposit', 'cashierCalls.deposits', 'cashierCalls.deposit',
      'cashierCalls.bankAccounts', 'cashierCalls.addBankAccount', 'cashierCalls.removeBankAccount', 'cashierCalls.withdrawPasswordStatus',
      'cashierCalls.setWithdrawPassword', 'cashierCalls.withdrawalLimits', 'cashierCalls.createWithdrawal', 'cashierCalls.withdrawals',
      'cashierCalls.withdrawal', 'cashierCalls.confirmWithdrawal', 'authCalls.changePassword', 'authCalls.totpSetup', 'authCalls.totpEnable',
    ]) expect(MEMBER_ONLY.map(([n]) => n)).toContain(name);
  });

  it.each(MEMBER_ONLY)('%s answers a trial session 403 TRIAL_FORBIDDEN', async (_name, c) => {
    const r = await send(c, trial);
    expect(r.status).toBe(403);
    expect(r.json).toMatchObject({ success: false, code: 'TRIAL_FORBIDDEN', message: 'Please Register An Account First' });
  });

  it.each(TRIAL_OPEN)('%s stays open to a trial session', async (_name, c) => {
    const r = await send(c, trial);
    expect(r.json?.code).not.toBe('TRIAL_FORBIDDEN');
    expect(r.status).not.toBe(401);
  });

  it('a trial still sees its balance and its member info, and can log out', async () => {
    const own = (await api<{ token: string }>(t.url, '/wps/session/login/freeplay', { body: { platform: 'W' } })).json!.value!.token;
    expect((await api(t.url, walletCalls.balance.path, { token: own })).status).toBe(200);
    expect((await api<{ isTrial: boolean }>(t.url, authCalls.memberInfo.path, { token: own })).json?.value?.isTrial).toBe(true);
    expect((await api(t.url, authCalls.logout.path, { method: 'DELETE', token: own })).status).toBe(200);
  });

  it('a trial session ends when the merchant switches free play off (it outlived the switch); a real member is not touched', async () => {
    const own = (await api<{ token: string }>(t.url, '/wps/session/login/freeplay', { body: { platform: 'W' } })).json!.value!.token;
    expect((await api(t.url, authCalls.memberInfo.path, { token: own })).status).toBe(200);
    expect((await api(t.url, '/wps/dev/merchant', { body: { modules: { FREEPLAY3: false } } })).status).toBe(200);
    try {
      const gone = await api(t.url, authCalls.memberInfo.path, { token: own });
      expect([gone.status, gone.json?.code]).toEqual([401, 'UNAUTHORIZED']);
      expect((await api(t.url, authCalls.memberInfo.path, { token: real })).status).toBe(200);
    } finally {
      expect((await api(t.url, '/wps/dev/merchant', { body: { modules: { FREEPLAY3: true } } })).status).toBe(200);
    }
    // Switched on again, the same session counts again (it was never revoked, only not honoured).
    expect((await api(t.url, authCalls.memberInfo.path, { token: own })).status).toBe(200);
  });

  it('a real member still opens the member centre', async () => {
    expect(real).not.toBe('');
    const reads = MEMBER_ONLY.filter(([, c]) => c.method === 'GET' && !c.path.includes(':'));
    expect(reads.length).toBeGreaterThanOrEqual(10);
    for (const [name, c] of reads) {
      const r = await send(c, real);
      expect({ name, status: r.status, code: r.json?.code }).toEqual({ name, status: 200, code: undefined });
    }
  });
});
