import { describe, expect, it } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import type { TWinner } from '@portal/contracts/api/games';
import type { TEventEnvelope } from '@portal/contracts/events/events';
import { QUERY_KEYS } from '../lib/query-keys';
import { CONSOLIDATED_FUNDS_KEY } from '../lib/agent-funds';
import { observe, settled, slowRead } from '../lib/testing/slow-read';
import { applyBalance, applyEventToCache, prependWinner, setFromEvent } from './cache-mapping';

const w = (id: string): TWinner => ({ id, iconUrl: null, winAmount: 12345, gameName: 'Game', customerName: 'ab***c', at: '2025-01-01T00:00:00Z' });

describe('prependWinner', () => {
  it('prepends to { list } and removes a duplicate id', () => {
    expect(prependWinner({ list: [w('1'), w('2')] }, w('2'))).toEqual({ list: [w('2'), w('1')] });
  });
  it('caps the list at the winner-board limit', () => {
    const list = Array.from({ length: 20 }, (_, i) => w(String(i)));
    const out = prependWinner({ list }, w('new')) as { list: TWinner[] };
    expect(out.list).toHaveLength(20);
    expect(out.list[0]?.id).toBe('new');
  });
  it('leaves unknown shapes alone', () => {
    expect(prependWinner(undefined, w('1'))).toBeUndefined();
  });
});

describe('applyEventToCache', () => {
  it('writes winner.posted into every rankList query and maintenance into the status', () => {
    const qc = new QueryClient();
    qc.setQueryData([...QUERY_KEYS.rankList, { limitNum: 20 }], { list: [w('1')] });
    qc.setQueryData(QUERY_KEYS.systemStatus, { systemStatus: 0, ip: '1.2.3.4' });
    const winner: TEventEnvelope = { id: 'e', type: 'winner.posted', v: 1, audience: 'merchant:D', seq: 1, at: '', payload: w('9') };
    applyEventToCache(qc, winner);
    expect(qc.getQueryData([...QUERY_KEYS.rankList, { limitNum: 20 }])).toEqual({ list: [w('9'), w('1')] });
    const maint: TEventEnvelope = {
      id: 'm', type: 'system.maintenance', v: 1, audience: 'merchant:D', seq: 2, at: '', payload: { systemStatus: 1, message: 'soon back' },
    };
    applyEventToCache(qc, maint);
    expect(qc.getQueryData(QUERY_KEYS.systemStatus)).toEqual({ systemStatus: 1, ip: '1.2.3.4', message: 'soon back' });
  });
});

describe('system.changed (operator console)', () => {
  it('marks the status stale for maintenance or blocking, whitelabel and domain route for flags', () => {
    const qc = new QueryClient();
    qc.setQueryData(QUERY_KEYS.systemStatus, { systemStatus: 0, ip: '1.2.3.4' });
    qc.setQueryData(QUERY_KEYS.whitelabel, { modules: {} });
    qc.setQueryData(QUERY_KEYS.domainRoute, { info: {} });
    const ev = (parts: string[]): TEventEnvelope => ({ id: 'c', type: 'system.changed', v: 1, audience: 'merchant:D', seq: 5, at: '', payload: { parts } as never });
    applyEventToCache(qc, ev(['modules']));
    expect(qc.getQueryState(QUERY_KEYS.systemStatus)?.isInvalidated).toBe(false);
    expect(qc.getQueryState(QUERY_KEYS.whitelabel)?.isInvalidated).toBe(true);
    expect(qc.getQueryState(QUERY_KEYS.domainRoute)?.isInvalidated).toBe(true);
    applyEventToCache(qc, ev(['blocked']));
    expect(qc.getQueryState(QUERY_KEYS.systemStatus)?.isInvalidated).toBe(true);
  });

  it('marks the registration settings stale when the console changes the field rules (and only then)', () => {
    const qc = new QueryClient();
    qc.setQueryData(QUERY_KEYS.registerSettings, { fields: [] });
    qc.setQueryData(QUERY_KEYS.whitelabel, { modules: {} });
    const ev = (parts: string[]): TEventEnvelope => ({ id: 'r', type: 'system.changed', v: 1, audience: 'merchant:D', seq: 6, at: '', payload: { parts } as never });
    applyEventToCache(qc, ev(['whitelabel']));
    expect(qc.getQueryState(QUERY_KEYS.registerSettings)?.isInvalidated).toBe(false);
    applyEventToCache(qc, ev(['registration']));
    expect(qc.getQueryState(QUERY_KEYS.registerSettings)?.isInvalidated).toBe(true);
  });
});

describe('system.changed with part games (/ops/games)', () => {
  it('marks every game and vendor list stale, so an open page shows a game under maintenance without a reload', () => {
    const qc = new QueryClient();
    const keys = [['home', 'hotGames', 'EN'], ['home', 'slides', 'EN'], ['gameCentre', 'gameList', { gameType: 'RNG' }, 'tok'], ['gameVendor'], ['favourites', 'list'], ['launch', 'providerGames', 'JILI', 'RNG'], ['siteFacts', 'games', 'all']];
    for (const k of keys) qc.setQueryData(k, { list: [] });
    qc.setQueryData(QUERY_KEYS.balance, { balance: 1 });
    const ev = (parts: string[]): TEventEnvelope => ({ id: 'g', type: 'system.changed', v: 1, audience: 'merchant:D', seq: 7, at: '', payload: { parts } as never });
    applyEventToCache(qc, ev(['whitelabel']));
    for (const k of keys) expect(qc.getQueryState(k)?.isInvalidated, JSON.stringify(k)).toBe(false);
    applyEventToCache(qc, ev(['games']));
    for (const k of keys) expect(qc.getQueryState(k)?.isInvalidated, JSON.stringify(k)).toBe(true);
    expect(qc.getQueryState(QUERY_KEYS.balance)?.isInvalidated).toBe(false);
  });
});

describe('wallet events', () => {
  const balance = { currency: 'PHP', currencySymbol: '₱', balance: 1000, available: 1000, held: 0 };

  it('writes balance.changed into every cached balance without a fetch', () => {
    const qc = new QueryClient();
    qc.setQueryData([...QUERY_KEYS.balance, 'tok'], balance);
    const env: TEventEnvelope = {
      id: 'b', type: 'balance.changed', v: 1, audience: 'user:1', seq: 3, at: '',
      payload: { memberId: 1, currency: 'PHP', balance: 151000, available: 101000, delta: 150000, reason: 'deposit', transferId: '9' },
    };
    applyEventToCache(qc, env);
    expect(qc.getQueryData([...QUERY_KEYS.balance, 'tok'])).toEqual({ ...balance, balance: 151000, available: 101000, held: 50000 });
    expect(applyBalance(undefined, env.payload as never)).toBeUndefined();
  });

  it('writes message.received unreadCount into the unread count', () => {
    const qc = new QueryClient();
    qc.setQueryData([...QUERY_KEYS.unreadCount, 'tok'], { count: 1 });
    const env: TEventEnvelope = {
      id: 'm', type: 'message.received', v: 1, audience: 'user:1', seq: 4, at: '',
      payload: { messageId: '5', kind: 'deposit_credited', title: 'message_deposit_credited', unreadCount: 4 },
    };
    applyEventToCache(qc, env);
    expect(qc.getQueryData([...QUERY_KEYS.unreadCount, 'tok'])).toEqual({ count: 4, byCategory: { transaction: 0, system: 0, marketing: 0 } });
  });

  it('writes the per-tab unread counts of message.received', () => {
    const qc = new QueryClient();
    qc.setQueryData([...QUERY_KEYS.unreadCount, 'tok'], { count: 1, byCategory: { transaction: 1, system: 0, marketing: 0 } });
    applyEventToCache(qc, {
      id: 'm2', type: 'message.received', v: 1, audience: 'user:1', seq: 5, at: '',
      payload: { messageId: '6', kind: 'marketing', title: 'message_marketing', unreadCount: 2, unreadByCategory: { transaction: 1, system: 0, marketing: 1 } },
    });
    expect(qc.getQueryData([...QUERY_KEYS.unreadCount, 'tok'])).toEqual({ count: 2, byCategory: { transaction: 1, system: 0, marketing: 1 } });
  });

  it('message.read (read on another page) lowers the unread counts and marks the message lists stale', () => {
    const qc = new QueryClient();
    qc.setQueryData([...QUERY_KEYS.unreadCount, 'tok'], { count: 3, byCategory: { transaction: 1, system: 1, marketing: 1 } });
    qc.setQueryData([...QUERY_KEYS.messages, 'tok', 'all', 1], { list: [] });
    applyEventToCache(qc, {
      id: 'r1', type: 'message.read', v: 1, audience: 'user:1', seq: 6, at: '',
      payload: { unreadCount: 2, unreadByCategory: { transaction: 1, system: 1, marketing: 0 } },
    });
    expect(qc.getQueryData([...QUERY_KEYS.unreadCount, 'tok'])).toEqual({ count: 2, byCategory: { transaction: 1, system: 1, marketing: 0 } });
    expect(qc.getQueryState([...QUERY_KEYS.messages, 'tok', 'all', 1])?.isInvalidated).toBe(true);
  });

  it('content.published marks the announcements, help centre or news stale, each by its part', async () => {
    const qc = new QueryClient();
    qc.setQueryData([...QUERY_KEYS.announcements, 'TY'], { notices: [] });
    qc.setQueryData([...QUERY_KEYS.helpCenter, 'TY'], []);
    qc.setQueryData([...QUERY_KEYS.news, 'list', 'TY', 1], { list: [] });
    applyEventToCache(qc, { id: 'c', type: 'content.published', v: 1, audience: 'merchant:DEMO', seq: 1, at: '', payload: { parts: ['announcements'] } });
    expect(qc.getQueryState([...QUERY_KEYS.announcements, 'TY'])?.isInvalidated).toBe(true);
    expect(qc.getQueryState([...QUERY_KEYS.helpCenter, 'TY'])?.isInvalidated).toBe(false);
    applyEventToCache(qc, { id: 'c2', type: 'content.published', v: 1, audience: 'merchant:DEMO', seq: 2, at: '', payload: { parts: ['help', 'news'] } });
    expect(qc.getQueryState([...QUERY_KEYS.helpCenter, 'TY'])?.isInvalidated).toBe(true);
    expect(qc.getQueryState([...QUERY_KEYS.news, 'list', 'TY', 1])?.isInvalidated).toBe(true);
  });
});

describe('an event landing while a read is in flight', () => {
  /** A status read that takes 30 ms and answers what the server held when it was SENT. */
  const slowStatus = () => slowRead({ systemStatus: 0 as 0 | 1, ip: '1.2.3.4' });
  const statusOf = (qc: QueryClient) => (qc.getQueryData(QUERY_KEYS.systemStatus) as { systemStatus: number }).systemStatus;
  const maint = (seq: number, systemStatus: 0 | 1): TEventEnvelope => ({
    id: `m${seq}`, type: 'system.maintenance', v: 1, audience: 'merchant:D', seq, at: '', payload: { systemStatus },
  });

  it('a re-read sent before the commit does not put the old status back (it did with a plain setQueryData)', async () => {
    for (const how of ['plain', 'event'] as const) {
      const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
      const status = slowStatus();
      const stop = observe(qc, QUERY_KEYS.systemStatus, status.queryFn);
      await settled(qc);
      void qc.invalidateQueries(); // the re-read after the socket's first hello: in flight, it reads status 0
      status.set({ systemStatus: 1, ip: '1.2.3.4' }); // maintenance committed, and its event arrives before the read lands
      if (how === 'plain') qc.setQueryData(QUERY_KEYS.systemStatus, { systemStatus: 1, ip: '1.2.3.4' });
      else applyEventToCache(qc, maint(1, 1));
      await settled(qc);
      expect(statusOf(qc), how).toBe(how === 'plain' ? 0 : 1);
      stop();
    }
  });

  it('a first read cancelled by an event is read again; with nothing in flight the write is immediate', async () => {
    const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const status = slowStatus();
    const stop = observe(qc, QUERY_KEYS.systemStatus, status.queryFn);
    status.set({ systemStatus: 1, ip: '1.2.3.4' });
    applyEventToCache(qc, maint(1, 1)); // no data yet to write into: the page must not stay pending
    await settled(qc);
    expect(qc.getQueryData(QUERY_KEYS.systemStatus)).toEqual({ systemStatus: 1, ip: '1.2.3.4' });
    expect(status.calls()).toBe(2);
    applyEventToCache(qc, maint(2, 0));
    expect(statusOf(qc)).toBe(0);
    stop();
  });

  it('writes that had to wait keep their order, and later writes queue behind them', async () => {
    const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const stop = observe(qc, QUERY_KEYS.systemStatus, slowStatus().queryFn);
    await settled(qc);
    void qc.invalidateQueries();
    const seen: number[] = [];
    for (const v of [1, 0, 1] as const) void setFromEvent<{ systemStatus: number }>(qc, QUERY_KEYS.systemStatus, (d) => (seen.push(v), d && { ...d, systemStatus: v }));
    await settled(qc);
    expect(seen).toEqual([1, 0, 1]);
    expect(statusOf(qc)).toBe(1);
    stop();
  });
});

describe('contract events and the agent menu flags', () => {
  it.each(['contract.offered', 'contract.updated'] as const)('%s re-reads the consolidated contract flags at once', (type) => {
    const qc = new QueryClient();
    const key = [...CONSOLIDATED_FUNDS_KEY, 'token-1'];
    const fresh = { pendingOffers: 0, isAgent: true };
    qc.setQueryData(key, fresh);
    qc.setQueryData(QUERY_KEYS.balance, { balance: 1 });
    expect(qc.getQueryState(key)?.isInvalidated).toBe(false);
    const env = {
      id: 'c', type, v: 1, audience: 'user:2', seq: 3, at: '',
      payload: { contractId: '7', kind: 'daily_salary', status: type === 'contract.offered' ? 'offered' : 'accepted', uplineId: 1, uplineAccount: 'agent01', downlineId: 2, rateBps: 150 },
    } as TEventEnvelope;
    applyEventToCache(qc, env);
    expect(qc.getQueryState(key)?.isInvalidated).toBe(true);
    expect(qc.getQueryState(QUERY_KEYS.balance)?.isInvalidated).toBe(false);
  });
});
