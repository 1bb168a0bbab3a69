import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatCalls, opsChatCalls, type TChatMessage, type TLaunchChatValue, type TOpsChat, type TOpsChatThread } from '@portal/contracts/api/chat';
import type { TEventEnvelope } from '@portal/contracts/events/events';
import { DEMO_VN } from '../../db/seed.ts';
import { hashToken } from '../sessions/session-store.ts';
import { connectSocket, startTestPortal, waitFor, type TestPortal, type TestSocket } from '../../testing/test-portal.ts';
import { apiOn, testMembers } from '../../testing/test-members.ts';
import { OPS_TOTP_SECRET, opsTotp } from '../../testing/ops-totp.ts';

/** Live chat (api/chat.ts) against a real portal: the player's calls, the console's, and the events of both sides. */
let t: TestPortal;
const call = apiOn(() => t.url);
const member = testMembers(() => t.url, { prefix: 'chat' });
const PASSWORD = 'Chat-pass-4242';
const tok: Record<string, string> = {};
const sockets: TestSocket[] = [];
const B_HOST = { host: DEMO_VN.host };
const at = (p: string, id: string | number) => p.replace(':id', String(id));

async function opsLogin(username: string, headers: Record<string, string> = {}) {
  const r = await call<{ token: string }>('/ops/api/session/login', { body: { username, password: PASSWORD, totp: await opsTotp(username, t.url) }, headers });
  expect(r.status, r.text).toBe(200);
  return r.json!.value!.token;
}
async function socket(auth: Record<string, unknown>) {
  const s = await connectSocket(t.url, auth);
  sockets.push(s);
  return s;
}
const chatEvents = (s: TestSocket) => (s.received as TEventEnvelope[]).filter((e) => e.type.startsWith('chat.'));
/** Chat events in the outbox: what was announced. */
const outboxCount = async () => Number((await t.portal.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM outbox WHERE type LIKE 'chat.%'`)).rows[0]!.n);
const send = (token: string, body: unknown) => call<{ chat: { status: string; unread: number }; message: TChatMessage }>(chatCalls.send.path, { token, body });

beforeAll(async () => {
  // Console sockets check their session every 300 ms here (60 s by default).
  t = await startTestPortal({ OPS_SOCKET_RECHECK_MS: '300' });
  const ops = t.portal.cashier.operators;
  for (const [name, roles] of [['ch_admin', ['administrator']], ['ch_support', ['support']], ['ch_finance', ['finance']], ['ch_content', ['content']]] as const) {
    await ops.createOperator('DEMO', name, PASSWORD, [...roles], { totpSecret: OPS_TOTP_SECRET });
    tok[name] = await opsLogin(name);
  }
  await ops.createOperator(DEMO_VN.code, 'ch_vnsupport', PASSWORD, ['support'], { totpSecret: OPS_TOTP_SECRET });
  tok.ch_vnsupport = await opsLogin('ch_vnsupport', B_HOST);
}, 120_000);
afterAll(async () => {
  for (const s of sockets) s.close();
  await t.stop();
});

describe('player calls', () => {
  it('CBS_modelList: one customer-service desk, online only while an operator who can answer used the console in the last 5 minutes', async () => {
    const m = await member(0);
    await t.portal.db.query(`UPDATE operator_sessions SET last_seen_at = now() - interval '6 minutes'`);
    const off = await call<{ list: unknown[] }>(chatCalls.modelList.path, { token: m.token });
    expect(off.status, off.text).toBe(200);
    expect(off.json!.value!.list).toEqual([{ deskId: 'support', online: false, hours: '24/7', unread: 0 }]);
    // a finance operator's use of the console does not staff the chat
    expect((await call('/ops/api/session', { token: tok.ch_finance! })).status).toBe(200);
    expect((await call<{ list: Array<{ online: boolean }> }>(chatCalls.modelList.path, { token: m.token })).json!.value!.list[0]!.online).toBe(false);
    // another merchant's support operator neither
    expect((await call('/ops/api/session', { token: tok.ch_vnsupport!, headers: B_HOST })).status).toBe(200);
    expect((await call<{ list: Array<{ online: boolean }> }>(chatCalls.modelList.path, { token: m.token })).json!.value!.list[0]!.online).toBe(false);
    expect((await call(opsChatCalls.list.path, { token: tok.ch_support! })).status).toBe(200);
    expect((await call<{ list: Array<{ online: boolean }> }>(chatCalls.modelList.path, { token: m.token })).json!.value!.list[0]!.online).toBe(true);
  });

  it('CBS_launchChat opens the chat once; a message is trimmed, stored, answered and announced to the member and the operators', async () => {
    const m = await member(0);
    const first = await call<TLaunchChatValue>(chatCalls.launchChat.path, { token: m.token, body: {} });
    expect(first.status, first.text).toBe(200);
    expect(first.json!.value).toMatchObject({ chat: { status: 'open', unread: 0, lastMessageAt: null }, messages: [], hasMore: false, desk: { deskId: 'support' } });
    const again = await call<TLaunchChatValue>(chatCalls.launchChat.path, { token: m.token, body: { deskId: 'support' } });
    expect(again.json!.value!.chat.chatId).toBe(first.json!.value!.chat.chatId);

    const mine = await socket({ token: m.token });
    const desk = await socket({ opsToken: tok.ch_support });
    const before = await outboxCount();
    const r = await send(m.token, { body: '  Hello, my deposit is late 🐟  ' });
    expect(r.status, r.text).toBe(200);
    expect(r.json!.value!.message).toMatchObject({ sender: 'member', body: 'Hello, my deposit is late 🐟' });
    // in the same transaction: one event for the member, one for the operators
    expect(await outboxCount()).toBe(before + 2);
    const posted = await waitFor(() => chatEvents(mine).find((e) => e.type === 'chat.posted'), 'chat.posted to the member');
    expect(posted.audience).toBe(`user:${m.memberId}`);
    expect(posted.payload).toMatchObject({ chatId: first.json!.value!.chat.chatId, status: 'open', message: { id: r.json!.value!.message.id } });
    const changed = await waitFor(() => chatEvents(desk).find((e) => e.type === 'chat.changed'), 'chat.changed to the operators');
    expect(changed.audience).toBe('ops:DEMO');
    expect(changed.payload).toMatchObject({ chatId: first.json!.value!.chat.chatId, memberId: m.memberId, unreadOps: 1, reason: 'member_message' });
    // the operators' event carries no text; a player socket never hears it
    expect(JSON.stringify(changed.payload)).not.toContain('deposit');
    expect(chatEvents(mine).some((e) => e.type === 'chat.changed')).toBe(false);

    // the console: listed with its unread count, opened, read, answered
    const list = await call<{ list: TOpsChat[] }>(opsChatCalls.list.path, { token: tok.ch_support! });
    const row = list.json!.value!.list.find((c) => c.memberId === m.memberId)!;
    expect(row).toMatchObject({ account: m.account, status: 'open', unreadOps: 1, lastBody: 'Hello, my deposit is late 🐟', lastSender: 'member', operator: null });
    const thread = await call<TOpsChatThread>(at(opsChatCalls.messages.path, row.id), { token: tok.ch_support! });
    expect(thread.json!.value!.list.map((x) => x.body)).toEqual(['Hello, my deposit is late 🐟']);
    const read = await call<TOpsChat>(at(opsChatCalls.read.path, row.id), { token: tok.ch_support!, body: {} });
    expect(read.json!.value!.unreadOps).toBe(0);
    const reply = await call<{ message: { operator: string; sender: string } }>(at(opsChatCalls.reply.path, row.id), { token: tok.ch_support!, body: { body: 'It is credited now.' } });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.json!.value!.message).toMatchObject({ sender: 'operator', operator: 'ch_support' });
    const answer = await waitFor(() => chatEvents(mine).find((e) => e.type === 'chat.posted' && (e.payload as { message: TChatMessage }).message.sender === 'operator'), 'the answer, live');
    expect(answer.payload).toMatchObject({ unread: 1, message: { body: 'It is credited now.' } });
    // the player never learns the operator's name
    expect(JSON.stringify(answer.payload)).not.toContain('ch_support');
    expect((await call<{ list: Array<{ unread: number }> }>(chatCalls.modelList.path, { token: m.token })).json!.value!.list[0]!.unread).toBe(1);
    const seen = await call<{ unread: number }>(chatCalls.read.path, { token: m.token, body: {} });
    expect(seen.json!.value!.unread).toBe(0);
    await waitFor(() => chatEvents(mine).find((e) => e.type === 'chat.updated'), 'chat.updated after reading');
    const taken = await call<{ list: TOpsChat[] }>(opsChatCalls.list.path, { token: tok.ch_admin! });
    expect(taken.json!.value!.list.find((c) => c.id === row.id)).toMatchObject({ operator: 'ch_support', unreadMember: 0, lastSender: 'operator' });
  });

  it('refuses bad input with a 4xx envelope and stores nothing; 1000 characters (an emoji counts once) are fine', async () => {
    const m = await member(0);
    const cases: Array<[string, unknown]> = [
      ['empty', { body: '   ' }], ['too long', { body: 'x'.repeat(1001) }], ['no body', {}], ['a number', { body: 12 }],
      ['an extra field', { body: 'hi', sender: 'operator' }], ['null', null], ['an array', ['hi']],
    ];
    for (const [name, body] of cases) {
      const r = await send(m.token, body);
      expect(r.status, name).toBe(400);
      expect(r.json, name).toMatchObject({ success: false });
      // a top-level null or array is not a JSON object body (the strict parser's MALFORMED_JSON)
      expect(['VALIDATION', 'MALFORMED_JSON'], name).toContain(r.json!.code);
    }
    const malformed = await call(chatCalls.send.path, { token: m.token, body: '{"body":' });
    expect(malformed.status).toBe(400);
    expect((await call(`${chatCalls.history.path}?beforeId=abc`, { token: m.token })).status).toBe(400);
    expect((await call(`${chatCalls.history.path}?beforeId=1&limit=51`, { token: m.token })).status).toBe(400);
    const n = await t.portal.db.query<{ n: number }>('SELECT count(*)::int AS n FROM chat_messages cm JOIN chats c ON c.id = cm.chat_id WHERE c.member_id = $1', [m.memberId]);
    expect(n.rows[0]!.n).toBe(0);
    expect((await send(m.token, { body: `${'a'.repeat(999)}😀` })).status).toBe(200);
  });

  it('rate limits a player: 10 messages in 10 s, the 11th is 429 in the envelope (nothing stored, nothing announced)', async () => {
    const m = await member(0);
    for (let i = 0; i < 10; i++) expect((await send(m.token, { body: `message ${i}` })).status).toBe(200);
    const before = await outboxCount();
    const r = await send(m.token, { body: 'one more' });
    expect(r.status).toBe(429);
    expect(r.json).toMatchObject({ success: false, code: 'TOO_MANY_REQUESTS' });
    expect(await outboxCount()).toBe(before);
    // an operator's replies are not limited by the player's window
    const id = (await call<TLaunchChatValue>(chatCalls.launchChat.path, { token: m.token, body: {} })).json!.value!.chat.chatId;
    expect((await call(at(opsChatCalls.reply.path, id), { token: tok.ch_admin!, body: { body: 'ok' } })).status).toBe(200);
  });

  it('a guest is 401, a trial account TRIAL_FORBIDDEN, the module off MODULE_DISABLED', async () => {
    const trial = (await call<{ token: string }>('/wps/session/login/freeplay', { body: { platform: 'W' } })).json!.value!.token;
    for (const c of Object.values(chatCalls)) {
      const path = c.path === chatCalls.history.path ? `${c.path}?beforeId=1` : c.path;
      const init = c.method === 'GET' ? {} : { body: c === chatCalls.send ? { body: 'hi' } : {} };
      expect((await call(path, { method: c.method, ...init })).status, `guest ${c.path}`).toBe(401);
      expect((await call(path, { method: c.method, token: trial, ...init })).json, `trial ${c.path}`).toMatchObject({ success: false, code: 'TRIAL_FORBIDDEN' });
    }
    const m = await member(0);
    await call('/wps/dev/merchant', { body: { modules: { LIVECHAT3: false } } });
    try {
      const r = await send(m.token, { body: 'hi' });
      expect(r.status).toBe(403);
      expect(r.json).toMatchObject({ success: false, code: 'MODULE_DISABLED' });
      expect((await call(chatCalls.modelList.path, { token: m.token })).json).toMatchObject({ code: 'MODULE_DISABLED' });
    } finally {
      await call('/wps/dev/merchant', { body: { modules: { LIVECHAT3: true } } });
    }
  });

  it('reads older messages a page at a time by id', async () => {
    const m = await member(0);
    const id = (await call<TLaunchChatValue>(chatCalls.launchChat.path, { token: m.token, body: {} })).json!.value!.chat.chatId;
    // 55 messages from customer service (the player's own are rate limited)
    for (let i = 0; i < 55; i++) expect((await call(at(opsChatCalls.reply.path, id), { token: tok.ch_support!, body: { body: `line ${i}` } })).status).toBe(200);
    const open = await call<TLaunchChatValue>(chatCalls.launchChat.path, { token: m.token, body: {} });
    expect(open.json!.value!.messages).toHaveLength(50);
    expect(open.json!.value!.messages[0]!.body).toBe('line 5');
    expect(open.json!.value!.messages.at(-1)!.body).toBe('line 54');
    expect(open.json!.value!.hasMore).toBe(true);
    const older = await call<{ list: TChatMessage[]; hasMore: boolean }>(`${chatCalls.history.path}?beforeId=${open.json!.value!.messages[0]!.id}`, { token: m.token });
    expect(older.json!.value!.list.map((x) => x.body)).toEqual(['line 0', 'line 1', 'line 2', 'line 3', 'line 4']);
    expect(older.json!.value!.hasMore).toBe(false);
    // another member reading from the same id sees none of it
    const other = await member(0);
    expect((await call<{ list: unknown[] }>(`${chatCalls.history.path}?beforeId=${open.json!.value!.messages[0]!.id}`, { token: other.token })).json!.value!.list).toEqual([]);
  });
});

describe('operator calls', () => {
  it('chat.answer: support and administrator only (403 and audited for the others); every call needs an operator', async () => {
    const m = await member(0);
    const id = (await send(m.token, { body: 'anyone?' })).json!.value!.chat;
    expect(id).toBeTruthy();
    for (const who of ['ch_finance', 'ch_content']) {
      expect((await call(opsChatCalls.list.path, { token: tok[who]! })).status, who).toBe(403);
    }
    expect((await call(opsChatCalls.list.path)).status).toBe(401);
    expect((await call(opsChatCalls.list.path, { token: m.token })).status).toBe(401);
    const denied = await t.portal.db.query(`SELECT 1 FROM audit_log WHERE action = 'permission.denied' AND target_id = 'chat.answer' AND operator_username = 'ch_finance'`);
    expect(denied.rows.length).toBeGreaterThan(0);
    // an operator socket: only with chat.answer, never a player's rooms
    await expect(connectSocket(t.url, { opsToken: tok.ch_finance })).rejects.toThrow(/UNAUTHORIZED/);
    await expect(connectSocket(t.url, { opsToken: 'x'.repeat(40) })).rejects.toThrow(/UNAUTHORIZED/);
    await expect(connectSocket(t.url, { opsToken: m.token })).rejects.toThrow(/UNAUTHORIZED/);
  });

  it('close: audited, told to the player; a reply to a closed chat is 409; the player writing again opens it', async () => {
    const m = await member(0);
    const mine = await socket({ token: m.token });
    const sent = await send(m.token, { body: 'thanks, all good' });
    const list = await call<{ list: TOpsChat[] }>(opsChatCalls.list.path, { token: tok.ch_support! });
    const id = list.json!.value!.list.find((c) => c.memberId === m.memberId)!.id;
    expect(sent.status).toBe(200);
    const closed = await call<TOpsChat>(at(opsChatCalls.close.path, id), { token: tok.ch_support!, body: {} });
    expect(closed.json!.value).toMatchObject({ status: 'closed', unreadOps: 0 });
    await waitFor(() => chatEvents(mine).find((e) => e.type === 'chat.updated' && (e.payload as { status: string }).status === 'closed'), 'closed, live');
    expect((await t.portal.db.query(`SELECT 1 FROM audit_log WHERE action = 'chat.close' AND target_id = $1`, [id])).rows).toHaveLength(1);
    const before = await outboxCount();
    const again = await call(at(opsChatCalls.close.path, id), { token: tok.ch_support!, body: {} });
    expect(again.status).toBe(409);
    const late = await call(at(opsChatCalls.reply.path, id), { token: tok.ch_support!, body: { body: 'hello?' } });
    expect(late.status).toBe(409);
    expect(late.json).toMatchObject({ success: false, code: 'INVALID_STATE' });
    expect(await outboxCount()).toBe(before);
    // closed chats come after open ones
    const reopened = await send(m.token, { body: 'one more question' });
    expect(reopened.json!.value!.chat.status).toBe('open');
    const bad = [
      await call(at(opsChatCalls.reply.path, id), { token: tok.ch_support!, body: { body: ' ' } }),
      await call(at(opsChatCalls.reply.path, id), { token: tok.ch_support!, body: { body: 'y'.repeat(1001) } }),
      await call(at(opsChatCalls.messages.path, id) + '?beforeId=-1', { token: tok.ch_support! }),
    ];
    for (const r of bad) expect(r.status).toBe(400);
    expect((await call(at(opsChatCalls.messages.path, 'abc'), { token: tok.ch_support! })).status).toBe(404);
    expect((await call(at(opsChatCalls.reply.path, 999999999), { token: tok.ch_support!, body: { body: 'x' } })).status).toBe(404);
  });

  it("merchant isolation: another merchant's operator neither lists, opens, answers nor closes this merchant's chats, nor hears them", async () => {
    const m = await member(0);
    const vnDesk = await socket({ opsToken: tok.ch_vnsupport, merchant: DEMO_VN.code });
    const r = await send(m.token, { body: 'private question' });
    expect(r.status).toBe(200);
    const id = (await call<{ list: TOpsChat[] }>(opsChatCalls.list.path, { token: tok.ch_support! })).json!.value!.list.find((c) => c.memberId === m.memberId)!.id;
    const vnList = await call<{ list: TOpsChat[] }>(opsChatCalls.list.path, { token: tok.ch_vnsupport!, headers: B_HOST });
    expect(vnList.status).toBe(200);
    expect(vnList.json!.value!.list.some((c) => c.id === id)).toBe(false);
    for (const [p, body] of [[opsChatCalls.messages.path, undefined], [opsChatCalls.reply.path, { body: 'x' }], [opsChatCalls.read.path, {}], [opsChatCalls.close.path, {}]] as const) {
      const res = await call(at(p, id), { token: tok.ch_vnsupport!, headers: B_HOST, ...(body ? { body } : {}) });
      expect(res.status, p).toBe(404);
      expect(res.text).not.toContain('private');
    }
    // DEMO's token on DEMOVN's host is no session there
    expect((await call(opsChatCalls.list.path, { token: tok.ch_support!, headers: B_HOST })).status).toBe(401);
    await new Promise((res) => setTimeout(res, 200));
    expect(chatEvents(vnDesk)).toEqual([]);
  });
});

describe('operator sockets end with their sessions', () => {
  it('logout closes that session\'s sockets, a password change the other sessions\', a role change all of them; a reconnect is judged again', async () => {
    const ops = t.portal.cashier.operators;
    await ops.createOperator('DEMO', 'ch_sock', PASSWORD, ['support'], { totpSecret: OPS_TOTP_SECRET });
    await ops.createOperator('DEMO', 'ch_sock2', PASSWORD, ['support'], { totpSecret: OPS_TOTP_SECRET });
    // Two sessions each (the second login takes the next authenticator step).
    const [a1, a2, b1, b2] = [await opsLogin('ch_sock'), await opsLogin('ch_sock'), await opsLogin('ch_sock2'), await opsLogin('ch_sock2')];
    const [sa1, sa1b, sa2, sb1, sb2] = [await socket({ opsToken: a1 }), await socket({ opsToken: a1 }), await socket({ opsToken: a2 }), await socket({ opsToken: b1 }), await socket({ opsToken: b2 })];
    const open = () => [sa1, sa1b, sa2, sb1, sb2].map((s) => s.connected);
    expect(open()).toEqual([true, true, true, true, true]);

    // Logout: that session's sockets only.
    expect((await call('/ops/api/session', { method: 'DELETE', token: a2 })).status).toBe(200);
    await waitFor(() => !sa2.connected, 'the logged-out session\'s socket closed');
    await new Promise((r) => setTimeout(r, 200));
    expect(open()).toEqual([true, true, false, true, true]);

    // A password change ends the operator's other sessions and their sockets; this session's go on.
    const changed = await call('/ops/api/session/password', { token: b1, body: { oldPassword: PASSWORD, newPassword: 'Chat-pass-5353', confirmNewPassword: 'Chat-pass-5353' } });
    expect(changed.status, changed.text).toBe(200);
    await waitFor(() => !sb2.connected, 'the other session\'s socket closed');
    await new Promise((r) => setTimeout(r, 200));
    expect(open()).toEqual([true, true, false, true, false]);
    await expect(connectSocket(t.url, { opsToken: b2 })).rejects.toThrow(/UNAUTHORIZED/);

    // An administrator takes the support role away: every socket of that operator closes, and it cannot rejoin.
    const id = (await t.portal.db.query<{ id: number }>(`SELECT id FROM operators WHERE merchant_code = 'DEMO' AND username = 'ch_sock'`)).rows[0]!.id;
    const demoted = await call(`/ops/api/operators/${id}`, { token: tok.ch_admin!, body: { roles: ['content'] } });
    expect(demoted.status, demoted.text).toBe(200);
    await waitFor(() => !sa1.connected && !sa1b.connected, 'the demoted operator\'s sockets closed');
    const heardBefore = chatEvents(sa1).length;
    expect(sb1.connected).toBe(true);
    await expect(connectSocket(t.url, { opsToken: a1 })).rejects.toThrow(/UNAUTHORIZED/);

    // What the closed sockets would have heard still reaches a desk that stayed.
    const m = await member(7);
    const before = chatEvents(sb1).length;
    expect((await send(m.token, { body: 'still there?' })).status).toBe(200);
    await waitFor(() => chatEvents(sb1).length > before, 'chat.changed on the remaining desk');
    expect(chatEvents(sa1).length).toBe(heardBefore);
  });

  it('a session that idles out, or that another process ends, closes its sockets at the next check; the open socket is not activity', async () => {
    const ops = t.portal.cashier.operators;
    // One session per operator: a second login of one operator would wait for the next authenticator step.
    for (const name of ['ch_idle', 'ch_cli', 'ch_stays']) await ops.createOperator('DEMO', name, PASSWORD, ['support'], { totpSecret: OPS_TOTP_SECRET });
    const [idle, cli, stays] = [await opsLogin('ch_idle'), await opsLogin('ch_cli'), await opsLogin('ch_stays')];
    const [sIdle, sCli, sStays] = [await socket({ opsToken: idle }), await socket({ opsToken: cli }), await socket({ opsToken: stays })];
    const lastSeen = async (token: string) => (await t.portal.db.query<{ at: string }>(
      `SELECT last_seen_at::text AS at FROM operator_sessions WHERE token_hash = $1`, [hashToken(token)])).rows[0]!.at;
    const seenBefore = await lastSeen(stays);
    // Several checks pass: nothing closes, and the checks do not move the session's last activity.
    await new Promise((r) => setTimeout(r, 1000));
    expect([sIdle.connected, sCli.connected, sStays.connected]).toEqual([true, true, true]);
    expect(await lastSeen(stays)).toBe(seenBefore);

    // Idle for 31 minutes (the limit is 30), and revoked in the database as `npm run ops:reset-operator` does from its own process.
    await t.portal.db.query(`UPDATE operator_sessions SET last_seen_at = now() - interval '31 minutes' WHERE token_hash = $1`, [hashToken(idle)]);
    await t.portal.db.query(`UPDATE operator_sessions SET revoked_at = now() WHERE token_hash = $1`, [hashToken(cli)]);
    await waitFor(() => !sIdle.connected && !sCli.connected, 'the idle and the revoked sessions\' sockets closed');
    expect(sStays.connected).toBe(true);
    await expect(connectSocket(t.url, { opsToken: idle })).rejects.toThrow(/UNAUTHORIZED/);
  });
});

