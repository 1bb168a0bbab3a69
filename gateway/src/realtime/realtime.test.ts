import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io as ioClient } from 'socket.io-client';
import { merchantAudience, userAudience, type TSyncReply } from '@portal/contracts/events/events';
import { emitEvent } from '../bus/outbox.ts';
import { api, connectSocket, startTestPortal, waitFor, type TestPortal } from '../testing/test-portal.ts';

let t: TestPortal;
beforeAll(async () => {
  t = await startTestPortal();
});
afterAll(async () => {
  await t.stop();
});

async function session(account: string) {
  const r = await api<{ memberId: number; token: string }>(t.url, '/wps/dev/sessions', { body: { account } });
  return r.json!.value!;
}

async function balanceEvent(memberId: number, delta: number) {
  return t.portal.db.tx((tx) =>
    emitEvent(tx, 'DEMO', userAudience(memberId), 'balance.changed', {
      memberId, currency: 'PHP', balance: 1000 + delta, available: 1000 + delta, delta, reason: 'test', transferId: `t-${delta}`,
    }));
}

const winner = (n: number) => ({ customerName: `Wi***${n}`, gameName: 'Golden Empire', iconUrl: null, winAmount: 100_000 + n });

describe('realtime gateway', () => {
  it('delivers merchant broadcasts to guests and user events only to their member', async () => {
    const a = await session('alice01');
    const b = await session('bobby01');
    const guest = await connectSocket(t.url);
    const sa = await connectSocket(t.url, { token: a.token });
    const sb = await connectSocket(t.url, { token: b.token });
    await api(t.url, '/wps/dev/winners', { body: winner(1) });
    const e = await balanceEvent(a.memberId, 5);
    await waitFor(() => sa.received.some((x) => x.id === e.id), 'alice balance event');
    await waitFor(() => guest.received.some((x) => x.type === 'winner.posted'), 'guest winner event');
    await waitFor(() => sb.received.some((x) => x.type === 'winner.posted'), 'bob winner event');
    expect(sb.received.some((x) => x.type === 'balance.changed')).toBe(false);
    expect(guest.received.some((x) => x.type === 'balance.changed')).toBe(false);
    const w = guest.received.find((x) => x.type === 'winner.posted')!;
    expect(w.audience).toBe(merchantAudience('DEMO'));
    expect(w.payload).toMatchObject({ customerName: 'Wi***1', winAmount: 100_001 });
    for (const s of [guest, sa, sb]) s.disconnect();
  });

  it('numbers events per audience without gaps, also under concurrent writers and rollbacks', async () => {
    const a = await session('carol01');
    const before = (await t.portal.db.query<{ seq: number }>('SELECT seq FROM audience_seq WHERE audience = $1', [userAudience(a.memberId)])).rows[0]?.seq ?? 0;
    await Promise.all(Array.from({ length: 20 }, (_, i) => balanceEvent(a.memberId, i + 1)));
    await expect(
      t.portal.db.tx(async (tx) => {
        await emitEvent(tx, 'DEMO', userAudience(a.memberId), 'balance.changed', {
          memberId: a.memberId, currency: 'PHP', balance: 1, available: 1, delta: 1, reason: 'x', transferId: 'rolled-back',
        });
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    await balanceEvent(a.memberId, 100);
    const rows = await t.portal.db.query<{ seq: number }>('SELECT seq FROM outbox WHERE audience = $1 ORDER BY seq', [userAudience(a.memberId)]);
    expect(rows.rows.map((r) => r.seq)).toEqual(Array.from({ length: 21 }, (_, i) => before + i + 1));
  });

  it('sends consecutive events of one audience as one `events` frame, in order, and a lone event as `event`', async () => {
    const a = await session('framea01');
    const b = await session('frameb01');
    const sa = await connectSocket(t.url, { token: a.token });
    const sb = await connectSocket(t.url, { token: b.token });
    const frames: Array<{ name: string; ids: string[] }> = [];
    sa.onAny((name: string, arg: unknown) => {
      if (name === 'event') frames.push({ name, ids: [(arg as { id: string }).id] });
      if (name === 'events') frames.push({ name, ids: (arg as Array<{ id: string }>).map((x) => x.id) });
    });
    const pay = (memberId: number, delta: number) => ({
      memberId, currency: 'PHP', balance: 1000 + delta, available: 1000 + delta, delta, reason: 'test', transferId: `f-${memberId}-${delta}`,
    });
    // One transaction: two events for a, then one for b, then one more for a (a new run).
    const ids = await t.portal.db.tx(async (tx) => [
      (await emitEvent(tx, 'DEMO', userAudience(a.memberId), 'balance.changed', pay(a.memberId, 1))).id,
      (await emitEvent(tx, 'DEMO', userAudience(a.memberId), 'balance.changed', pay(a.memberId, 2))).id,
      (await emitEvent(tx, 'DEMO', userAudience(b.memberId), 'balance.changed', pay(b.memberId, 3))).id,
      (await emitEvent(tx, 'DEMO', userAudience(a.memberId), 'balance.changed', pay(a.memberId, 4))).id,
    ]);
    await waitFor(() => sa.received.some((x) => x.id === ids[3]) && sb.received.some((x) => x.id === ids[2]), 'the four events');
    // The relay published the transaction's rows in one pass: a's first two share a frame.
    expect(frames).toEqual([{ name: 'events', ids: [ids[0], ids[1]] }, { name: 'event', ids: [ids[3]] }]);
    expect(sa.received.map((x) => x.id)).toEqual([ids[0], ids[1], ids[3]]);
    expect(sa.received.map((x) => x.seq)).toEqual([1, 2, 3].map((k) => sa.received[0]!.seq + k - 1));
    expect(sb.received.map((x) => x.id)).toEqual([ids[2]]);
    sa.disconnect();
    sb.disconnect();
  });

  it('refuses an invalid token at the handshake', async () => {
    await expect(connectSocket(t.url, { token: 'x'.repeat(43) })).rejects.toThrow(/UNAUTHORIZED/);
    await expect(connectSocket(t.url, { token: 12 })).rejects.toThrow(/BAD_HANDSHAKE/);
  });

  it('refuses the token of a session ended by any use case at the first handshake after its commit', async () => {
    const merchant = (await t.portal.merchants.resolve({ code: 'DEMO' }))!;
    const ends: Array<[string, (s: { memberId: number; token: string }) => Promise<unknown>]> = [
      ['logout', (s) => t.portal.accounts.logout(s.token, s.memberId)],
      ['account disabled', (s) => t.portal.accounts.disable(s.memberId)],
      ['password changed', async (s) => {
        // a forced change (no old password asked): the member made by the dev route has none
        await t.portal.db.query('UPDATE members SET must_change_password = true WHERE id = $1', [s.memberId]);
        return t.portal.accounts.changePassword(merchant, s.memberId, { newPassword: 'Abcd12345', confirmNewPassword: 'Abcd12345' }, '127.0.0.1');
      }],
      ['self-exclusion', (s) => t.portal.rg.exclude('DEMO', s.memberId, { kind: 'member', account: `end${s.memberId}` }, 'cooling', '24h')],
      ['operator exclusion', (s) => t.portal.rg.exclude('DEMO', s.memberId, { kind: 'system' }, 'operator', null, 'test')],
    ];
    for (const [what, end] of ends) {
      const s = await session(`end${what.replace(/[^a-z]/g, '').slice(0, 8)}${ends.findIndex((e) => e[0] === what)}`);
      // live before: the handshake reads the same session that is then ended
      const before = await connectSocket(t.url, { token: s.token });
      const closed = new Promise((r) => before.once('disconnect', r));
      await end(s);
      await expect(connectSocket(t.url, { token: s.token }), what).rejects.toThrow(/UNAUTHORIZED/);
      await closed;
    }
  });

  it('sends a reconnecting client what it missed, in order', async () => {
    const a = await session('dave001');
    const s1 = await connectSocket(t.url, { token: a.token });
    const first = await balanceEvent(a.memberId, 1);
    await waitFor(() => s1.received.find((x) => x.id === first.id), 'first event');
    s1.disconnect();
    const missed = [await balanceEvent(a.memberId, 2), await balanceEvent(a.memberId, 3), await balanceEvent(a.memberId, 4)];
    const s2 = await connectSocket(t.url, { token: a.token, last: { [userAudience(a.memberId)]: first.seq } });
    await waitFor(() => s2.received.length >= 3 && s2.received, 'catch-up events');
    // ...in one frame (connectSocket records an `events` frame's elements in order)
    expect(s2.frames.slice(0, 1)).toEqual([{ name: 'events', count: 3 }]);
    // the missed events come first and in order, ahead of anything live
    expect(s2.received.slice(0, 3).map((e) => e.seq)).toEqual(missed.map((e) => e.seq));
    expect(s2.received.slice(0, 3).map((e) => e.id)).toEqual(missed.map((e) => e.id));
    // a sync request for an audience the socket may not read returns nothing of it
    const reply: TSyncReply = await s2.timeout(2000).emitWithAck('sync', { last: { 'user:999999': 0, [userAudience(a.memberId)]: first.seq } });
    expect(reply.ok).toBe(true);
    if (reply.ok) {
      expect(reply.events.every((e) => e.audience === userAudience(a.memberId))).toBe(true);
      expect(reply.events.map((e) => e.seq)).toEqual(missed.map((e) => e.seq));
    }
    s2.disconnect();
  });

  it('answers system.resync when the gap is older than the outbox keeps', async () => {
    const a = await session('erin001');
    const e1 = await balanceEvent(a.memberId, 1);
    await balanceEvent(a.memberId, 2);
    const e3 = await balanceEvent(a.memberId, 3);
    await t.portal.db.query('DELETE FROM outbox WHERE audience = $1 AND seq <= $2', [userAudience(a.memberId), e3.seq - 1]);
    const s = await connectSocket(t.url, { token: a.token, last: { [userAudience(a.memberId)]: e1.seq - 1 } });
    const resync = await waitFor(() => s.received.find((e) => e.type === 'system.resync'), 'resync');
    expect(resync.audience).toBe(userAudience(a.memberId));
    expect(resync.seq).toBe(e3.seq);
    s.disconnect();
  });

  it('drops a socket that sends junk and leaves the others alone', async () => {
    const good = await connectSocket(t.url);
    const bad = await connectSocket(t.url);
    const closed = new Promise<string>((resolve) => bad.on('disconnect', (reason) => resolve(reason)));
    (bad as unknown as { emit(name: string, ...a: unknown[]): void }).emit('sync', { last: 'nope' }, () => undefined);
    expect(await closed).toBe('io server disconnect');
    const bad2 = await connectSocket(t.url);
    const closed2 = new Promise<string>((resolve) => bad2.on('disconnect', (reason) => resolve(reason)));
    (bad2 as unknown as { emit(name: string, ...a: unknown[]): void }).emit('hack', 'x'.repeat(1000));
    expect(await closed2).toBe('io server disconnect');
    // oversized frames close only that connection
    const raw = ioClient(t.url, { transports: ['websocket'], reconnection: false, forceNew: true });
    await new Promise((r) => raw.once('connect', () => r(null)));
    const rawClosed = new Promise((r) => raw.once('disconnect', r));
    raw.emit('sync', { last: {}, pad: 'x'.repeat(64 * 1024) });
    await rawClosed;
    await api(t.url, '/wps/dev/winners', { body: winner(2) });
    await waitFor(() => good.received.some((e) => e.type === 'winner.posted' && (e.payload as { customerName: string }).customerName === 'Wi***2'), 'good socket still served');
    good.disconnect();
  });

  it('disconnects every socket of a member on demand', async () => {
    const a = await session('fran001');
    const s1 = await connectSocket(t.url, { token: a.token });
    const s2 = await connectSocket(t.url, { token: a.token });
    const other = await connectSocket(t.url);
    const gone = Promise.all([s1, s2].map((s) => new Promise((r) => s.once('disconnect', r))));
    await t.portal.realtime.disconnectMember(a.memberId);
    await gone;
    expect(other.connected).toBe(true);
    other.disconnect();
  });

  it('switches maintenance live: status 1, API closed, event pushed', async () => {
    const guest = await connectSocket(t.url);
    const on = await api(t.url, '/wps/dev/merchant', { body: { maintenance: true, maintenanceMessage: 'Back at 05:00' } });
    expect(on.json?.value).toMatchObject({ systemStatus: 1 });
    const ev = await waitFor(() => guest.received.find((e) => e.type === 'system.maintenance'), 'maintenance event');
    expect(ev.payload).toMatchObject({ systemStatus: 1, message: 'Back at 05:00' });
    const status = await api<{ systemStatus: number; message?: string }>(t.url, '/wps/system/status');
    expect(status.json?.value).toMatchObject({ systemStatus: 1, message: 'Back at 05:00' });
    const closed = await api(t.url, '/wps/relay/GCSGAME_hotGamesV2');
    expect(closed.status).toBe(503);
    expect(closed.json?.code).toBe('MAINTENANCE');
    await api(t.url, '/wps/dev/merchant', { body: { maintenance: false } });
    await waitFor(() => guest.received.filter((e) => e.type === 'system.maintenance').length === 2, 'maintenance off event');
    const blocked = await api(t.url, '/wps/dev/merchant', { body: { blockedIps: ['127.0.0.0/8'] } });
    expect(blocked.json?.value).toMatchObject({ systemStatus: 2 });
    expect((await api(t.url, '/wps/relay/GCSGAME_hotGamesV2')).json?.code).toBe('REGION_RESTRICTED');
    await api(t.url, '/wps/dev/merchant', { body: { blockedIps: [] } });
    expect((await api(t.url, '/wps/relay/GCSGAME_hotGamesV2')).status).toBe(200);
    guest.disconnect();
  });
});
