import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { SIM_SIGNATURE_HEADER } from '@portal/contracts/api/cashier';
import { signVendorRequest } from '../modules/provider/vendor-routes.ts';
import { signSim } from '../modules/cashier/payment-provider.ts';
import { checkLedger, transfer } from '../modules/wallet/ledger.ts';
import { connectSocket, type TestPortal, type TestSocket } from './test-portal.ts';
import { apiOn, testMembers } from './test-members.ts';
import { OPS_TOTP_SECRET, opsTotp } from './ops-totp.ts';
import type { OperatorRole } from '@portal/contracts/api/ops';

/** A game of a test vendor: its type, node id, code and name (`vendorName`, the vendors row's display name, defaults to `name`). */
export type TestVendorGame = { type: string; node: string; code: string; name: string; vendorName?: string };

/** A signed vendor of DEMO (`secret`) with its games, as the vendor-API tests need it. */
export async function seedVendor(db: TestPortal['portal']['db'], vendor: string, secret: string, games: ReadonlyArray<TestVendorGame>) {
  await db.query(`INSERT INTO vendor_accounts (merchant_code, vendor, secret, launch_url) VALUES ('DEMO', $1, $2, 'https://vendor.example/play')`, [vendor, secret]);
  for (const g of games) {
    await db.query(`INSERT INTO vendors (merchant_code, vassalage, game_type, game_category, display_name) VALUES ('DEMO', $1, $2, $2, $3)`, [vendor, g.type, g.vendorName ?? g.name]);
    await db.query(`INSERT INTO games (merchant_code, node_id, vassalage, game_code, game_type, game_name) VALUES ('DEMO', $1, $2, $3, $4, $5)`, [g.node, vendor, g.code, g.type, g.name]);
  }
}

/** An operator of DEMO with the test authenticator (OPS_TOTP_SECRET), signed in: its session token. */
export async function signedInOperator(portal: TestPortal, name: string, password: string, roles: OperatorRole[]) {
  await portal.portal.cashier.operators.createOperator('DEMO', name, password, roles, { totpSecret: OPS_TOTP_SECRET });
  const login = await apiOn(() => portal.url)<{ token: string }>('/ops/api/session/login', { body: { username: name, password, totp: await opsTotp(name, portal.url) } });
  return login.json!.value!.token;
}

/** The signed calls of a vendor (`secret`) to the portal at `url()`; `signedPost` is the bare signed POST (its response unchecked). */
export function vendorClient(url: () => string, vendor: string, secret: string) {
  const call = apiOn(url);
  const post = (path: string, body: unknown) => {
    const raw = JSON.stringify(body);
    const ts = Math.floor(Date.now() / 1000);
    return fetch(`${url()}/vendor/v1/${vendor}/${path}`, {
      method: 'POST', headers: { 'content-type': 'application/json', 'x-timestamp': String(ts), 'x-signature': signVendorRequest(secret, ts, raw) }, body: raw,
    });
  };
  /** A signed call of the vendor; it must succeed. */
  async function vendorCall(path: string, body: unknown) {
    const json = (await (await post(path, body)).json()) as { success: boolean };
    expect(json.success, JSON.stringify(json)).toBe(true);
  }
  /** A vendor session of the player on a game, as a vendor gets it from the launch. */
  async function vendorToken(token: string, nodeId: string) {
    const launch = await call<{ url: string }>('/wps/game/launchGame', { body: { nodeId }, token });
    const code = new URL(launch.json!.value!.url).searchParams.get('token')!;
    const auth = await post('authenticate', { token: code });
    return ((await auth.json()) as { value: { token: string } }).value.token;
  }
  return { vendorCall, vendorToken, signedPost: post };
}

const OPERATOR_ROLES = { admin: 'administrator', content: 'content', finance: 'finance', risk: 'risk' } as const;

/**
 * What the engagement suites (missions, points, promotions) share over HTTP: a signed vendor of DEMO
 * with a FISH game (node `<vendor>-F`, code F1) and a LIVE one (`<vendor>-L`, L1), four operators
 * signed in (`ops.<operatorPrefix>admin`, `content`, `finance`, `risk`), players with live sockets,
 * bets through the vendor API and deposits paid through the payment simulator. `portal` is read at
 * each call (the portal starts in a beforeAll); `label` names the games (`<label> Fish`) and makes
 * the operators' password (`<label>12345678`).
 */
export function vendorSuite(portal: () => TestPortal, opts: { vendor: string; memberPrefix: string; operatorPrefix: string; label: string }) {
  const { vendor, label } = opts;
  const secret = randomBytes(32).toString('hex');
  const url = () => portal().url;
  const call = apiOn(url);
  const { vendorCall, vendorToken } = vendorClient(url, vendor, secret);
  const newMember = testMembers(url, { prefix: opts.memberPrefix });
  const sockets: TestSocket[] = [];
  const ops: Record<string, string> = {};
  let seq = 0;
  const id = (p: string) => `${p}-${Date.now()}-${++seq}`;

  /** The vendor and its games (`types`), then the operators, signed in with their authenticator. */
  async function setup(types: ReadonlyArray<'FISH' | 'LIVE'> = ['FISH', 'LIVE']) {
    const games = types.map((type) => (type === 'FISH' ? { type, node: `${vendor}-F`, code: 'F1', name: `${label} Fish` } : { type, node: `${vendor}-L`, code: 'L1', name: `${label} Live` }));
    await seedVendor(portal().portal.db, vendor, secret, games);
    const password = `${label}12345678`;
    for (const [suffix, role] of Object.entries(OPERATOR_ROLES)) {
      const name = `${opts.operatorPrefix}${suffix}`;
      ops[name] = await signedInOperator(portal(), name, password, [role]);
    }
  }

  /** Closes the sockets, checks the ledger, stops the portal. */
  async function end() {
    for (const s of sockets) s.close();
    expect(await checkLedger(portal().portal.db)).toEqual([]);
    await portal().stop();
  }

  /** A live socket of the member, closed by end(). */
  async function connect(token: string) {
    const s = await connectSocket(url(), { token });
    sockets.push(s);
    return s;
  }
  /** A new (unfunded) member with a live socket. */
  async function player() {
    const m = await newMember(0);
    return { ...m, socket: await connect(m.token) };
  }
  async function balance(token: string) {
    return (await call<{ balance: number }>('/wps/v2/wallets/balance', { token })).json!.value!.balance;
  }
  async function transferIn(memberId: number, amount: number) {
    await portal().portal.db.tx((tx) => transfer(tx, { merchant: 'DEMO', currency: 'PHP', key: id('fund'), kind: 'deposit', debit: { system: 'deposit' }, credit: { member: memberId }, amount }));
  }

  /** The rounds of the bets placed here: a rollback names its bet's round, as a vendor's does (another round is refused). */
  const rounds = new Map<string, string>();
  /** A bet through the vendor API; its transaction id. */
  async function bet(p: { memberId: number }, vtoken: string, game: 'F1' | 'L1', amount: number) {
    const tx = id('b');
    const round = id('r');
    rounds.set(tx, round);
    await vendorCall('bet', { transactionId: tx, playerId: String(p.memberId), roundId: round, gameCode: game, amount, token: vtoken });
    return tx;
  }
  /** The round of a bet placed with bet(). */
  const roundOf = (betTx: string) => rounds.get(betTx) ?? 'unknown-round';
  /** A deposit paid through the payment simulator (its signed callback). */
  async function deposit(token: string, amount: number) {
    const order = await call<{ id: string }>('/wps/v2/deposit/orders', { token, body: { channelCode: 'GCASH', amount, requestId: `req_${randomBytes(6).toString('hex')}` } });
    expect(order.status, order.text).toBe(200);
    const d = (await portal().portal.db.query<{ provider_order_id: string; reference: string }>('SELECT provider_order_id, reference FROM deposits WHERE id = $1', [Number(order.json!.value!.id)])).rows[0]!;
    const raw = JSON.stringify({ orderId: d.provider_order_id, merchantOrderId: d.reference, status: 'paid', amount, currency: 'PHP', at: new Date().toISOString() });
    const res = await fetch(`${url()}/wps/payment/callback/sim`, { method: 'POST', headers: { 'content-type': 'application/json', [SIM_SIGNATURE_HEADER]: signSim(portal().portal.cashier.simSecret!, raw) }, body: raw });
    expect(res.status).toBe(200);
  }

  return { call, newMember, ops, id, setup, end, connect, player, balance, transferIn, vendorCall, vendorToken, bet, roundOf, deposit };
}
