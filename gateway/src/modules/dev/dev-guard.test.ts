import { networkInterfaces } from 'node:os';
import { randomBytes } from 'node:crypto';
import { io as ioClient, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../app/config.ts';
import { api, startTestPortal, type TestPortal } from '../../testing/test-portal.ts';
import { isLocalRequest, isLoopbackAddress } from './local-only.ts';

/**
 * Finding 3 of issue 10: the development helpers (/wps/dev/*, the /dev-tap namespace, the payment
 * simulator's pages) answer only this machine, judged by the TCP peer and not by a forwarded header,
 * and never hand out a session of a real account.
 */

/** An address of this machine that is not loopback: a client connecting to it comes from it. */
const OTHER_ADDRESS = Object.values(networkInterfaces()).flat().find((a) => a && !a.internal && a.family === 'IPv4')?.address;

const fake = (remoteAddress: string | undefined, headers: Record<string, string> = {}) => ({ socket: { remoteAddress }, headers }) as unknown as Parameters<typeof isLocalRequest>[0];

describe('isLocalRequest', () => {
  it('trusts the socket peer only, and a forwarded chain only when every hop is loopback', () => {
    expect(isLocalRequest(fake('127.0.0.1'))).toBe(true);
    expect(isLocalRequest(fake('::1'))).toBe(true);
    expect(isLocalRequest(fake('::ffff:127.0.0.1'))).toBe(true);
    expect(isLocalRequest(fake('127.0.0.1', { 'x-forwarded-for': '127.0.0.1, ::1' }))).toBe(true);
    expect(isLocalRequest(fake('192.0.2.10'))).toBe(false);
    expect(isLocalRequest(fake('::ffff:192.0.2.10'))).toBe(false);
    expect(isLocalRequest(fake(undefined))).toBe(false);
    // a remote client cannot claim loopback
    expect(isLocalRequest(fake('192.0.2.10', { 'x-forwarded-for': '127.0.0.1' }))).toBe(false);
    expect(isLocalRequest(fake('192.0.2.10', { 'x-real-ip': '127.0.0.1' }))).toBe(false);
    // a proxy on this machine forwarding a remote client is not local
    expect(isLocalRequest(fake('127.0.0.1', { 'x-forwarded-for': '198.51.100.7' }))).toBe(false);
    expect(isLocalRequest(fake('127.0.0.1', { 'x-forwarded-for': '127.0.0.1, 198.51.100.7' }))).toBe(false);
    expect(isLocalRequest(fake('127.0.0.1', { 'x-real-ip': '198.51.100.7' }))).toBe(false);
    expect(isLocalRequest(fake('127.0.0.1', { forwarded: 'for=127.0.0.1' }))).toBe(false);
    expect(isLoopbackAddress('127.1.2.3')).toBe(true);
    expect(isLoopbackAddress('128.0.0.1')).toBe(false);
    expect(isLoopbackAddress('::2')).toBe(false);
  });

  it('production refuses the payment simulator', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', PAYMENT_SIM_SECRET: 'x'.repeat(32) })).toThrow(/PAYMENT_SIM_SECRET is refused in production/);
    expect(loadConfig({ NODE_ENV: 'development', PAYMENT_SIM_SECRET: 'x'.repeat(32) }).PAYMENT_SIM_SECRET).toBe('x'.repeat(32));
  });
});

/** Connect to the dev tap; resolves 'connected' or the refusal's message. */
function tap(url: string, headers: Record<string, string> = {}): Promise<{ outcome: string; socket: Socket }> {
  const socket = ioClient(`${url}/dev-tap`, { transports: ['websocket'], reconnection: false, forceNew: true, extraHeaders: headers });
  return new Promise((resolve) => {
    socket.once('connect', () => resolve({ outcome: 'connected', socket }));
    socket.once('connect_error', (err) => resolve({ outcome: err.message, socket }));
  });
}

describe('development helpers on a development portal', () => {
  let t: TestPortal;
  let local: string;
  let remote: string;
  beforeAll(async () => {
    // Every interface, behind one trusted proxy hop: as `npm start` with TRUST_PROXY=1.
    t = await startTestPortal({ NODE_ENV: 'development', HOST: '0.0.0.0', TRUST_PROXY: '1' });
    local = `http://127.0.0.1:${t.port}`;
    remote = `http://${OTHER_ADDRESS ?? '127.0.0.1'}:${t.port}`;
  });
  afterAll(async () => {
    await t.stop();
  });

  it('never hands out a session of an account the dev helpers did not create', async () => {
    const agent = await t.portal.db.query<{ id: number }>(`SELECT id FROM members WHERE account = 'agent01'`);
    expect(agent.rows).toHaveLength(1);
    const seeded = await api(local, '/wps/dev/sessions', { body: { account: 'agent01' } });
    expect(seeded.status).toBe(403);
    expect(seeded.json).toMatchObject({ success: false, code: 'FORBIDDEN' });
    expect((await api(local, '/wps/dev/sessions', { body: { account: 'player01' } })).status).toBe(403);
    // a real account whose name differs only in case
    await t.portal.db.query(`INSERT INTO members (merchant_code, account, account_lower, nickname) VALUES ('DEMO', 'RealPerson1', 'realperson1', 'x')`);
    expect((await api(local, '/wps/dev/sessions', { body: { account: 'realperson1' } })).json).toMatchObject({ success: false, code: 'FORBIDDEN' });
    // nor disables one, or brings a real member's withdrawal forward
    const off = await api(local, `/wps/dev/members/${agent.rows[0]!.id}/disable`, { body: {} });
    expect(off.status).toBe(403);
    expect((await t.portal.db.query<{ status: string }>('SELECT status FROM members WHERE id = $1', [agent.rows[0]!.id])).rows[0]!.status).toBe('active');

    // accounts it makes itself keep working: made on the spot, or by /wps/dev/members
    const name = `dg${randomBytes(4).toString('hex')}`;
    const first = await api<{ memberId: number; token: string }>(local, '/wps/dev/sessions', { body: { account: name } });
    expect(first.status).toBe(200);
    const again = await api<{ memberId: number; token: string }>(local, '/wps/dev/sessions', { body: { account: name } });
    expect(again.json!.value!.memberId).toBe(first.json!.value!.memberId);
    expect((await api(local, '/wps/member/info', { token: again.json!.value!.token })).status).toBe(200);
    await api(local, '/wps/dev/members', { body: { account: `${name}m`, password: 'abc12345' } });
    expect((await api(local, '/wps/dev/sessions', { body: { account: `${name}m` } })).status).toBe(200);
  });

  it('a loopback client reaches them, also through a proxy on this machine that forwards a loopback client', async () => {
    expect((await api(local, '/wps/dev/outbox?to=nobody@example.ph')).status).toBe(200);
    expect((await api(local, '/wps/dev/outbox?to=nobody@example.ph', { headers: { 'x-forwarded-for': '127.0.0.1' } })).status).toBe(200);
    const { outcome, socket } = await tap(local);
    expect(outcome).toBe('connected');
    socket.close();
  });

  it('a loopback proxy forwarding a remote client is refused everywhere', async () => {
    const headers = { 'x-forwarded-for': '198.51.100.7' };
    for (const [path, body] of [['/wps/dev/outbox?to=x@example.ph', undefined], ['/wps/dev/sessions', { account: 'fwd_user1' }]] as const) {
      const r = await api(local, path, { body, headers });
      expect(r.status, path).toBe(404);
      expect(r.json).toMatchObject({ success: false, code: 'NOT_FOUND' });
    }
    const { outcome, socket } = await tap(local, headers);
    expect(outcome).toBe('NOT_FOUND');
    socket.close();
  });

  describe.skipIf(!OTHER_ADDRESS)(`a client from another address (${OTHER_ADDRESS})`, () => {
    it('gets 404 from every /wps/dev call, even claiming loopback in X-Forwarded-For with trust proxy on', async () => {
      const calls: Array<[string, unknown]> = [
        ['/wps/dev/outbox?to=x@example.ph', undefined],
        ['/wps/dev/sessions', { account: 'remote_user1' }],
        ['/wps/dev/members', { account: 'remote_user2', password: 'abc12345' }],
        ['/wps/dev/winners', { customerName: 'Re***e', gameName: 'Remote', iconUrl: null, winAmount: 100 }],
        ['/wps/dev/merchant', { maintenance: true }],
        ['/wps/dev/replay', { events: [] }],
        ['/wps/dev/botcheck/x', undefined],
      ];
      for (const headers of [{}, { 'x-forwarded-for': '127.0.0.1' }, { 'x-real-ip': '127.0.0.1' }] as Array<Record<string, string>>) {
        for (const [path, body] of calls) {
          const r = await api(remote, path, { body, headers });
          expect(r.status, `${path} ${JSON.stringify(headers)}`).toBe(404);
          expect(r.json).toMatchObject({ success: false, code: 'NOT_FOUND' });
        }
      }
      // nothing it asked for happened
      expect((await t.portal.db.query(`SELECT 1 FROM members WHERE account IN ('remote_user1', 'remote_user2')`)).rows).toEqual([]);
      expect((await t.portal.merchants.byCode('DEMO'))!.maintenance).toBe(false);
      // the rest of the API answers it as usual
      expect((await api(remote, '/wps/system/status')).status).not.toBe(404);
    });

    it('cannot open the dev tap, which a loopback client can and which carries other members\' events', async () => {
      for (const headers of [{}, { 'x-forwarded-for': '127.0.0.1' }] as Array<Record<string, string>>) {
        const { outcome, socket } = await tap(remote, headers);
        expect(outcome).toBe('NOT_FOUND');
        socket.close();
      }
      const { outcome, socket } = await tap(local);
      expect(outcome).toBe('connected');
      const seen = new Promise<{ type: string }>((resolve) => socket.on('event', (e: { type: string }) => resolve(e)));
      await api(local, '/wps/dev/winners', { body: { customerName: 'Ta***p', gameName: 'Tap', iconUrl: null, winAmount: 100 } });
      expect((await seen).type).toBe('winner.posted');
      socket.close();
    });

    it('cannot open or press the payment simulator\'s pay page, so it cannot credit itself', async () => {
      const account = `ps${randomBytes(4).toString('hex')}`;
      await api(local, '/wps/dev/members', { body: { account, password: 'abc12345' } });
      const s = (await api<{ memberId: number; token: string }>(local, '/wps/dev/sessions', { body: { account } })).json!.value!;
      // the member calls are open to it; the order is created through them
      const order = await api<{ id: string; payUrl: string }>(remote, '/wps/v2/deposit/orders', { token: s.token, body: { channelCode: 'GCASH', amount: 500_00, requestId: `r_${account}` } });
      expect(order.status).toBe(200);
      const payUrl = order.json!.value!.payUrl;
      for (const headers of [{}, { 'x-forwarded-for': '127.0.0.1' }] as Array<Record<string, string>>) {
        expect((await fetch(remote + payUrl, { headers })).status).toBe(404);
        const pressed = await fetch(remote + payUrl, { method: 'POST', headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' }, body: 'outcome=paid' });
        expect(pressed.status).toBe(404);
      }
      const dep = await api<{ status: string }>(local, `/wps/v2/deposit/orders/${order.json!.value!.id}`, { token: s.token });
      expect(dep.json!.value!.status).toBe('pending');
      const bal = await api<{ balance: number }>(local, '/wps/v2/wallets/balance', { token: s.token });
      expect(bal.json!.value!.balance).toBe(0);
      // from this machine the page is there
      expect((await fetch(local + payUrl)).status).toBe(200);
    });
  });
});
