import { describe, expect, it, vi } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import { parseEvent } from '@portal/contracts/events/events';
import type { TEventEnvelope, TSyncReply, TSyncRequest } from '@portal/contracts/events/events';
import { QUERY_KEYS } from '../lib/query-keys';
import { RealtimeClient } from './realtime-client';
import type { RealtimeTransport } from './socket-transport';
import type { TSocketGrabReply } from '@portal/contracts/api/red-envelopes';

const A = 'merchant:DEMO';

function winner(seq: number): TEventEnvelope {
  return {
    id: `e${seq}`, type: 'winner.posted', v: 1, audience: A, seq, at: '2025-01-01T00:00:00Z',
    payload: { id: `w${seq}`, iconUrl: null, winAmount: 100 * seq, gameName: 'g', customerName: 'c', at: '2025-01-01T00:00:00Z' },
  };
}

function setup() {
  let emit: (raw: unknown) => void = () => {};
  let state: (s: 'connected' | 'reconnecting') => void = () => {};
  let hello: (info: { memberId: number | null; merchantCode: string; audiences: string[]; nodeId: string }) => void = () => {};
  let refused: () => void = () => {};
  const syncs: { req: TSyncRequest; done: (reply: TSyncReply | null) => void }[] = [];
  const grabs: { req: { envelopeId: string }; done: (reply: TSocketGrabReply | null) => void }[] = [];
  const transport: RealtimeTransport = {
    onState: (fn) => {
      state = fn;
    },
    onHello: (fn) => {
      hello = fn;
    },
    onRefused: (fn) => {
      refused = fn;
    },
    onEvent: (fn) => {
      emit = fn;
    },
    sync: (req, done) => syncs.push({ req, done }),
    grabEnvelope: (req, done) => grabs.push({ req, done }),
    reconnect: () => {},
    close: () => {},
  };
  const queryClient = new QueryClient();
  queryClient.setQueryData(QUERY_KEYS.rankList, { list: [] });
  const client = new RealtimeClient({ queryClient, getToken: () => 'tok', getMerchant: () => 'DEMO', createTransport: () => transport, parseEvent });
  client.connect();
  const applied: number[] = [];
  client.on('winner.posted', (env) => applied.push(env.seq));
  return {
    client, queryClient, syncs, grabs, applied, emit: (e: unknown) => emit(e),
    state: (x: 'connected' | 'reconnecting') => state(x),
    refuse: () => refused(),
    hello: (audiences: string[]) => hello({ memberId: null, merchantCode: 'DEMO', audiences, nodeId: 'n' }),
  };
}

describe('RealtimeClient', () => {
  it("tells its listeners when the server refuses the page's session (ended in another tab), until they unsubscribe", () => {
    const s = setup();
    let told = 0;
    const off = s.client.onSessionRefused(() => told++);
    s.refuse();
    expect(told).toBe(1);
    off();
    s.refuse();
    expect(told).toBe(1);
  });

  it('is connected only once the server has joined its rooms, and rereads data for an audience it never heard from', () => {
    const s = setup();
    const invalidate = vi.spyOn(s.queryClient, 'invalidateQueries');
    s.state('connected');
    expect(s.client.getSnapshot().state).toBe('connecting');
    s.hello([A]);
    expect(s.client.getSnapshot()).toEqual({ state: 'connected', audiences: [A] });
    expect(invalidate).toHaveBeenCalledTimes(1);
    // after a reconnect with a known seq the server's catch-up covers the gap: no reread
    s.emit(winner(1));
    s.state('reconnecting');
    expect(s.client.getSnapshot().state).toBe('reconnecting');
    s.hello([A]);
    expect(invalidate).toHaveBeenCalledTimes(1);
  });

  it('grabs an envelope over the socket only once joined: null before (the page asks over HTTP), the reply after', async () => {
    const s = setup();
    expect(await s.client.grabEnvelope('7')).toBeNull();
    expect(s.grabs).toHaveLength(0);
    s.state('connected');
    s.hello([A]);
    const pending = s.client.grabEnvelope('7');
    expect(s.grabs.map((g) => g.req)).toEqual([{ envelopeId: '7' }]);
    const value = { envelopeId: '7', amount: 120, transferId: '9', balance: 120, available: 120 };
    s.grabs[0]!.done({ success: true, value });
    expect(await pending).toEqual({ success: true, value });
    s.state('reconnecting');
    expect(await s.client.grabEnvelope('8')).toBeNull();
  });

  it('asks for a sync on a gap and applies the reply in order', () => {
    const s = setup();
    s.emit(winner(1));
    s.emit(winner(4));
    expect(s.applied).toEqual([1]);
    expect(s.syncs).toHaveLength(1);
    expect(s.syncs[0]?.req).toEqual({ last: { [A]: 1 } });
    s.emit(winner(5));
    expect(s.syncs).toHaveLength(1);
    s.syncs[0]?.done({ ok: true, events: [winner(2), winner(3)] });
    expect(s.applied).toEqual([1, 2, 3, 4, 5]);
    expect(s.client.lastSeq()).toEqual({ [A]: 5 });
    const list = s.queryClient.getQueryData<{ list: { id: string }[] }>(QUERY_KEYS.rankList)?.list ?? [];
    expect(list.map((w) => w.id)).toEqual(['w5', 'w4', 'w3', 'w2', 'w1']);
    expect(s.client.handshakeAuth()).toEqual({ token: 'tok', merchant: 'DEMO', last: { [A]: 5 } });
  });

  it('refetches over HTTP and moves on when the sync fails', () => {
    const s = setup();
    const invalidate = vi.spyOn(s.queryClient, 'invalidateQueries');
    s.emit(winner(1));
    s.emit(winner(7));
    s.syncs[0]?.done({ ok: false, code: 'GONE' });
    expect(invalidate).toHaveBeenCalled();
    expect(s.applied).toEqual([1, 7]);
    s.emit(winner(8));
    expect(s.applied).toEqual([1, 7, 8]);
  });

  it('treats a timed-out sync like a failed one and ignores malformed events', () => {
    const s = setup();
    s.emit({ nonsense: true });
    s.emit(winner(1));
    s.emit(winner(3));
    s.syncs[0]?.done(null);
    expect(s.applied).toEqual([1, 3]);
  });

  it('system.resync invalidates the cache and resets the audience', () => {
    const s = setup();
    const invalidate = vi.spyOn(s.queryClient, 'invalidateQueries');
    s.emit(winner(1));
    s.emit({ id: 'r', type: 'system.resync', v: 1, audience: A, seq: 50, at: '', payload: { audience: A, reason: 'too old' } });
    expect(invalidate).toHaveBeenCalled();
    expect(s.client.lastSeq()).toEqual({ [A]: 50 });
    s.emit(winner(51));
    expect(s.applied).toEqual([1, 51]);
  });
});
