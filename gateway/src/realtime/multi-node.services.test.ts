import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { io as ioClient } from 'socket.io-client';
import { userAudience, type TEventEnvelope } from '@portal/contracts/events/events';
import { emitEvent } from '../bus/outbox.ts';
import { freshDatabase, requireEnv } from '../testing/fresh-database.ts';
import { api, connectSocket, startTestPortal, waitFor, type TestPortal } from '../testing/test-portal.ts';

const DATABASE_URL = requireEnv('DATABASE_URL');
const REDIS_URL = requireEnv('REDIS_URL');

let db: { url: string; drop(): Promise<void> };
let env: Record<string, string>;
let a: TestPortal;
let b: TestPortal;

beforeAll(async () => {
  db = await freshDatabase(DATABASE_URL);
  env = { DATABASE_URL: db.url, REDIS_URL, BUS_STREAM: `portal:test:${randomBytes(4).toString('hex')}` };
  // Both nodes migrate the fresh database at once: the advisory lock makes one wait for the other.
  [a, b] = await Promise.all([startTestPortal({ ...env, NODE_ID: 'node-a' }), startTestPortal({ ...env, NODE_ID: 'node-b' })]);
});
afterAll(async () => {
  await Promise.allSettled([a?.stop(), b?.stop()]);
  await db?.drop();
});

async function session(t: TestPortal, account: string) {
  return (await api<{ memberId: number; token: string }>(t.url, '/wps/dev/sessions', { body: { account } })).json!.value!;
}

function balance(t: TestPortal, memberId: number, n: number) {
  return t.portal.db.tx((tx) =>
    emitEvent(tx, 'DEMO', userAudience(memberId), 'balance.changed', {
      memberId, currency: 'PHP', balance: n, available: n, delta: 1, reason: 'test', transferId: `mn-${n}`,
    }));
}

describe('two gateway nodes on one PostgreSQL and one Redis', () => {
  it('ran the migrations once although both nodes started together', async () => {
    const r = await a.portal.db.query<{ n: number }>('SELECT count(*)::int AS n FROM schema_migrations');
    expect(r.rows[0]!.n).toBeGreaterThan(0);
    const m = await a.portal.db.query<{ n: number }>("SELECT count(*)::int AS n FROM merchants WHERE code = 'DEMO'");
    expect(m.rows[0]!.n).toBe(1);
    expect(a.portal.db.kind).toBe('pg');
    expect(a.portal.bus.kind).toBe('redis');
  });

  it("delivers an event committed on one node to a socket on the other", async () => {
    const s = await session(a, 'multi01');
    const onB = await connectSocket(b.url, { token: s.token });
    const guestOnA = await connectSocket(a.url);
    const guestOnB = await connectSocket(b.url);
    const e = await balance(a, s.memberId, 1);
    await waitFor(() => onB.received.find((x) => x.id === e.id), 'event from node A on node B');
    await api(b.url, '/wps/dev/winners', { body: { customerName: 'No***b', gameName: 'Fortune Gems', iconUrl: null, winAmount: 555_500 } });
    await waitFor(() => guestOnA.received.find((x) => x.type === 'winner.posted'), 'winner from node B on node A');
    await waitFor(() => guestOnB.received.find((x) => x.type === 'winner.posted'), 'winner on node B');
    // exactly once per socket, although both nodes read the bus
    await new Promise((r) => setTimeout(r, 300));
    expect(onB.received.filter((x) => x.id === e.id)).toHaveLength(1);
    expect(guestOnA.received.filter((x) => x.type === 'winner.posted')).toHaveLength(1);
    for (const x of [onB, guestOnA, guestOnB]) x.disconnect();
  });

  it("disconnects a member's sockets on every node", async () => {
    const s = await session(a, 'multi02');
    const onA = await connectSocket(a.url, { token: s.token });
    const onB = await connectSocket(b.url, { token: s.token });
    const gone = Promise.all([onA, onB].map((x) => new Promise((r) => x.once('disconnect', r))));
    await a.portal.realtime.disconnectMember(s.memberId);
    await gone;
  });

  it('refuses on node B a session that node A ended, at the first handshake after the commit', async () => {
    const s = await session(a, 'multi04');
    const onB = await connectSocket(b.url, { token: s.token });
    const gone = new Promise((r) => onB.once('disconnect', r));
    await a.portal.accounts.logout(s.token, s.memberId);
    await expect(connectSocket(b.url, { token: s.token })).rejects.toThrow(/UNAUTHORIZED/);
    await gone;
    // a burst of handshakes on PostgreSQL (one statement for many tokens): live and ended ones mixed
    const live = await Promise.all(Array.from({ length: 12 }, (_, i) => session(a, `multi05${String(i).padStart(2, '0')}`)));
    const ended = await Promise.all(Array.from({ length: 12 }, (_, i) => session(a, `multi06${String(i).padStart(2, '0')}`)));
    for (const e of ended) await a.portal.accounts.logout(e.token, e.memberId);
    const tries = await Promise.allSettled([...live, ...ended].map((x) => connectSocket(b.url, { token: x.token })));
    for (const r of tries.slice(0, 12)) expect(r.status, String((r as PromiseRejectedResult).reason ?? '')).toBe('fulfilled');
    for (const r of tries.slice(12)) expect(r.status === 'rejected' && /UNAUTHORIZED/.test(String(r.reason))).toBe(true);
    // each live socket is its own member's: an event to one member reaches that socket only
    const e = await balance(a, live[3]!.memberId, 42);
    const sockets = tries.slice(0, 12).map((r) => (r as PromiseFulfilledResult<Awaited<ReturnType<typeof connectSocket>>>).value);
    await waitFor(() => sockets[3]!.received.find((x) => x.id === e.id), 'event on its member socket');
    const other = await balance(a, live[8]!.memberId, 43);
    await waitFor(() => sockets[8]!.received.find((x) => x.id === other.id), 'event on the other member socket');
    expect(sockets.flatMap((x, i) => (x.received.some((y) => y.id === e.id || y.id === other.id) ? [i] : []))).toEqual([3, 8]);
    for (const x of sockets) x.disconnect();
  });

  it('loses no event across a gateway restart: the client reconnects and catches up', async () => {
    const s = await session(a, 'multi03');
    const audience = userAudience(s.memberId);
    const port = a.port;
    const received: TEventEnvelope[] = [];
    let last = 0;
    const client = ioClient(a.url, {
      transports: ['websocket'],
      reconnectionDelay: 100,
      reconnectionDelayMax: 300,
      // sent on every (re)connect: where this client stands
      auth: (cb) => cb({ token: s.token, last: last ? { [audience]: last } : {} }),
    });
    const apply = (e: TEventEnvelope) => {
      if (e.audience !== audience || e.seq <= last) return;
      received.push(e);
      last = e.seq;
    };
    client.on('event', apply);
    client.on('events', (es: TEventEnvelope[]) => es.forEach(apply));
    await new Promise((r) => client.once('hello', r));
    const before = [await balance(b, s.memberId, 1), await balance(b, s.memberId, 2)];
    await waitFor(() => last === before[1]!.seq, 'events before restart');

    await a.stop();
    const during: TEventEnvelope[] = [];
    for (let i = 3; i <= 7; i++) during.push(await balance(b, s.memberId, i));
    // the same port: the client keeps retrying the address it knows
    a = await startTestPortal({ ...env, NODE_ID: 'node-a2', PORT: String(port) });
    expect(a.port).toBe(port);
    await waitFor(() => last === during[during.length - 1]!.seq, 'events published while the node was down', 15_000);
    const after = await balance(b, s.memberId, 8);
    await waitFor(() => last === after.seq, 'event after restart');
    expect(received.map((e) => e.seq)).toEqual([...before, ...during, after].map((e) => e.seq));
    client.close();
  });
});
