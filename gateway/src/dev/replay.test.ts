import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { userAudience } from '@portal/contracts/events/events';
import { readStream, replay, schedule } from './replay.ts';
import { api, connectSocket, startTestPortal, waitFor, type TestPortal } from '../testing/test-portal.ts';

const STREAM = fileURLToPath(new URL('../../../tests/streams/home-winners.jsonl', import.meta.url));

let t: TestPortal;
beforeAll(async () => {
  t = await startTestPortal();
});
afterAll(async () => {
  await t.stop();
});

describe('record and replay', () => {
  it('reads the shipped recording', async () => {
    const events = await readStream(STREAM);
    expect(events.map((e) => e.type)).toContain('winner.posted');
    expect(events.map((e) => e.type)).toContain('balance.changed');
  });

  it('schedules by the recorded gaps, scaled by speed', async () => {
    const events = await readStream(STREAM);
    const real = schedule(events, 1);
    const fast = schedule(events, 4);
    const all = schedule(events, 0);
    expect(all).toHaveLength(1);
    const total = (s: typeof real) => s.reduce((n, b) => n + b.waitMs, 0);
    expect(total(real)).toBeGreaterThan(1000);
    // gaps under 5 ms (after scaling) are merged into one batch, so the totals agree within that
    expect(Math.abs(total(fast) - total(real) / 4)).toBeLessThan(5 * events.length);
    expect(real.flatMap((b) => b.events)).toEqual(events);
  });

  it('replays through the outbox to connected sockets, re-targeted and re-sequenced', async () => {
    const s = (await api<{ memberId: number; token: string }>(t.url, '/wps/dev/sessions', { body: { account: 'replay01' } })).json!.value!;
    const sock = await connectSocket(t.url, { token: s.token });
    const events = await readStream(STREAM);
    const sent = await replay(t.url, events, { speed: 0, userId: s.memberId });
    expect(sent).toBe(events.length);
    await waitFor(() => sock.received.length >= events.length, 'replayed events');
    expect(sock.received.map((e) => e.type)).toEqual(events.map((e) => e.type));
    const mine = sock.received.filter((e) => e.audience === userAudience(s.memberId));
    expect(mine.map((e) => e.seq)).toEqual(mine.map((_, i) => i + 1));
    const balances = mine.filter((e) => e.type === 'balance.changed');
    expect(balances.length).toBeGreaterThan(0);
    expect(balances.every((e) => (e.payload as { memberId: number }).memberId === s.memberId)).toBe(true);
    // the replayed rows are in the outbox like any event, so a reconnect can catch up on them
    const rows = await t.portal.db.query('SELECT 1 FROM outbox WHERE audience = $1', [userAudience(s.memberId)]);
    expect(rows.rows.length).toBe(mine.length);
    sock.disconnect();
  });

  it('refuses an envelope whose payload does not match its type', async () => {
    const [first] = await readStream(STREAM);
    const bad = { ...first!, payload: { nope: true } };
    const r = await api(t.url, '/wps/dev/replay', { body: { events: [bad] } });
    expect(r.status).toBe(400);
  });
});
