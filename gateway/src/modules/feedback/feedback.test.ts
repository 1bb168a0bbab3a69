import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crc32, deflateSync } from 'node:zlib';
import { PNG } from 'pngjs';
import { connectSocket, startTestPortal, waitFor, type TestPortal } from '../../testing/test-portal.ts';
import { apiOn, testMembers } from '../../testing/test-members.ts';
import { OPS_TOTP_SECRET, opsTotp } from '../../testing/ops-totp.ts';
import { checkImage } from './image-check.ts';

/** A real png of w x h (pngjs encodes it). */
function png(w: number, h: number, opts: { interlace?: boolean } = {}) {
  const p = new PNG({ width: w, height: h });
  for (let i = 0; i < p.data.length; i += 4) p.data.set([(i * 7) & 255, (i * 13) & 255, 90, 255], i);
  return PNG.sync.write(p, opts.interlace ? { interlace: true } as never : {});
}
/** A 24x16 baseline JPEG that Chromium's canvas encoded. */
const JPEG = Buffer.from(
  '/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAYEBQYFBAYGBQYHBwYIChAKCgkJChQODwwQFxQYGBcUFhYaHSUfGhsjHBYWICwgIyYnKSopGR8tMC0oMCUoKSj/2wBDAQcHBwoIChMKChMoGhYaKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCj/wAARCAAQABgDASIAAhEBAxEB/8QAFgABAQEAAAAAAAAAAAAAAAAABQAG/8QAIBAAAQQBBAMAAAAAAAAAAAAAEQADBBICFBUhQWOi4f/EABcBAAMBAAAAAAAAAAAAAAAAAAQFBgf/xAAkEQAAAwYHAQAAAAAAAAAAAAARITEAARITFTICBAUUUVJhA//aAAwDAQACEQMRAD8Azst7Tx83a2qOCOwjt58Hv8SMtnUR82rVsOQeyjtm8/p9RGg0Lb4qnfE8L0B3UlH1tE1qsz3U6wDsUX9jQPGRiPaiPg7WtjwT2FKiM6ePg1a1TyB2VKbzkncfTb2RPhVBJTTk2f5SbIwT7wcKKBoS8E3/2Q==',
  'base64',
);

describe('image check by content', () => {
  it('accepts real png (plain and interlaced) and jpeg, with their dimensions', async () => {
    expect(await checkImage(png(37, 21))).toEqual({ ok: true, image: { contentType: 'image/png', width: 37, height: 21 } });
    expect(await checkImage(png(9, 13, { interlace: true }))).toEqual({ ok: true, image: { contentType: 'image/png', width: 9, height: 13 } });
    expect(await checkImage(JPEG)).toEqual({ ok: true, image: { contentType: 'image/jpeg', width: 24, height: 16 } });
  });

  it('refuses text, a png signature on junk, a truncated or corrupted png, a png whose data does not fit its size, and broken jpegs', async () => {
    const good = png(20, 20);
    const flipped = Buffer.from(good);
    flipped[good.length - 30] = flipped[good.length - 30]! ^ 0xff; // inside IDAT: its CRC fails
    const short = Buffer.from(good);
    short.writeUInt32BE(40, 16); // IHDR says 40 wide: the pixel stream is too short (and the CRC breaks)
    const lying = Buffer.from(good);
    lying.writeUInt32BE(40, 16);
    // rewrite the IHDR CRC so only the size lies
    lying.writeUInt32BE(crc32(lying.subarray(12, 29)) >>> 0, 29);
    const fakeIdat = (() => {
      // A well-formed chunk list whose IDAT inflates to garbage size.
      const sig = good.subarray(0, 33); // signature + IHDR
      const data = deflateSync(Buffer.alloc(5));
      const chunk = (type: string, body: Buffer) => {
        const len = Buffer.alloc(4);
        len.writeUInt32BE(body.length);
        const tb = Buffer.concat([Buffer.from(type, 'latin1'), body]);
        const c = Buffer.alloc(4);
        c.writeUInt32BE(crc32(tb) >>> 0);
        return Buffer.concat([len, tb, c]);
      };
      return Buffer.concat([sig, chunk('IDAT', data), chunk('IEND', Buffer.alloc(0))]);
    })();
    const cases: Array<[string, Buffer]> = [
      ['text', Buffer.from('hello, this is a text file renamed to .png\n')],
      ['png signature then junk', Buffer.concat([good.subarray(0, 8), Buffer.from('not really a png at all, only its first eight bytes')])],
      ['truncated png', good.subarray(0, good.length - 20)],
      ['flipped byte', flipped],
      ['size mismatch', short],
      ['fake pixel stream', fakeIdat],
      ['jpeg without end', JPEG.subarray(0, JPEG.length - 2)],
      ['jpeg header only', JPEG.subarray(0, 200)],
      ['jpeg magic then text', Buffer.concat([JPEG.subarray(0, 3), Buffer.from('this is not a jpeg')])],
    ];
    cases.push(['png whose header lies about its size', lying]);
    // A decompression bomb: 8000x8000 RGBA claims 256 MB decoded; refused from its header, before inflating.
    const ihdr = Buffer.alloc(13);
    ihdr.writeUInt32BE(8000, 0);
    ihdr.writeUInt32BE(8000, 4);
    ihdr.set([8, 6, 0, 0, 0], 8);
    const chunk = (type: string, body: Buffer) => {
      const len = Buffer.alloc(4);
      len.writeUInt32BE(body.length);
      const tb = Buffer.concat([Buffer.from(type, 'latin1'), body]);
      const c = Buffer.alloc(4);
      c.writeUInt32BE(crc32(tb) >>> 0);
      return Buffer.concat([len, tb, c]);
    };
    const bomb = Buffer.concat([good.subarray(0, 8), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(Buffer.alloc(1 << 20))), chunk('IEND', Buffer.alloc(0))]);
    // Refused from the header's size alone, before any inflating (that reason is only given there).
    expect(await checkImage(bomb)).toEqual({ ok: false, reason: 'png too large when decoded' });
    for (const [name, data] of cases) expect((await checkImage(data)).ok, name).toBe(false);
  });
});

let t: TestPortal;
const call = apiOn(() => t.url);
const member = testMembers(() => t.url, { prefix: 'fb' });
const ops = new Map<string, string>();

async function opsLogin(role: 'support' | 'finance' | 'administrator') {
  const name = `fb_${role}`;
  await t.portal.cashier.operators.createOperator('DEMO', name, 'Feedback12345', [role], { totpSecret: OPS_TOTP_SECRET });
  const r = await call<{ token: string }>('/ops/api/session/login', { body: { username: name, password: 'Feedback12345', totp: await opsTotp(name, t.url) } });
  expect(r.status, r.text).toBe(200);
  ops.set(role, r.json!.value!.token);
}

beforeAll(async () => {
  t = await startTestPortal();
  for (const role of ['support', 'finance', 'administrator'] as const) await opsLogin(role);
});
afterAll(async () => {
  await t.stop();
});

type Sent = { id: string; content: string; status: string; images: Array<{ n: number; contentType: string; width: number; height: number; size: number }>; answer: string | null };
async function send(token: string | null, content: string | null, files: Array<{ data: Buffer; name: string; type: string; field?: string }> = []) {
  const form = new FormData();
  if (content !== null) form.append('content', content);
  for (const f of files) form.append(f.field ?? 'images', new Blob([new Uint8Array(f.data)], { type: f.type }), f.name);
  const res = await fetch(`${t.url}/wps/feedback`, { method: 'PUT', headers: token ? { authorization: `Bearer ${token}` } : {}, body: form });
  return { status: res.status, json: (await res.json()) as { success: boolean; code?: string; value?: Sent; details?: Array<{ path: string }> } };
}
const count = async (memberId: number) =>
  (await t.portal.db.query<{ f: number; i: number }>(
    'SELECT (SELECT count(*)::int FROM feedback WHERE member_id = $1) AS f, (SELECT count(*)::int FROM feedback_images i JOIN feedback f ON f.id = i.feedback_id WHERE f.member_id = $1) AS i',
    [memberId])).rows[0]!;

describe('PUT /wps/feedback', () => {
  it('stores the text and the images judged by their bytes (whatever their names and declared types), and lists them', async () => {
    const m = await member(0);
    const pic = png(64, 48);
    // A real jpeg sent under a .png name with a png type: judged by content, it is a jpeg.
    const r = await send(m.token, '  The fishing game froze after a big win 🐟  ', [
      { data: pic, name: 'screen.png', type: 'image/png' },
      { data: JPEG, name: 'photo.png', type: 'image/png' },
    ]);
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    expect(r.json.value).toMatchObject({
      content: 'The fishing game froze after a big win 🐟', status: 'open', answer: null,
      images: [{ n: 0, contentType: 'image/png', width: 64, height: 48, size: pic.length }, { n: 1, contentType: 'image/jpeg', width: 24, height: 16, size: JPEG.length }],
    });
    const list = await call<{ list: Sent[]; total: number }>('/wps/feedback', { token: m.token });
    expect(list.json?.value).toMatchObject({ total: 1, list: [{ id: r.json.value!.id }] });
    const img = await fetch(`${t.url}/wps/feedback/${r.json.value!.id}/images/1`, { headers: { authorization: `Bearer ${m.token}` } });
    expect(img.status).toBe(200);
    expect(img.headers.get('content-type')).toBe('image/jpeg');
    expect(img.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await img.arrayBuffer()).equals(JPEG)).toBe(true);
    // Another member sees neither the feedback nor its images.
    const other = await member(0);
    expect((await call<{ total: number }>('/wps/feedback', { token: other.token })).json?.value?.total).toBe(0);
    expect((await fetch(`${t.url}/wps/feedback/${r.json.value!.id}/images/1`, { headers: { authorization: `Bearer ${other.token}` } })).status).toBe(404);
  });

  it('accepts exactly 140 characters (an emoji counts once) and no image', async () => {
    const m = await member(0);
    const r = await send(m.token, `${'a'.repeat(139)}😀`);
    expect(r.status).toBe(200);
    expect(r.json.value?.images).toEqual([]);
  });

  it('refuses bad input with a 4xx envelope and stores nothing', async () => {
    const m = await member(0);
    const pic = png(8, 8);
    const cases: Array<[string, Awaited<ReturnType<typeof send>>, number, string]> = [
      ['141 characters', await send(m.token, 'x'.repeat(141)), 400, 'VALIDATION'],
      ['empty text', await send(m.token, '   '), 400, 'VALIDATION'],
      // PostgreSQL cannot store U+0000: the multipart text passed no NUL check and its insert failed (a 500).
      ['a NUL in the text', await send(m.token, 'a\u0000b'), 400, 'VALIDATION'],
      ['no text', await send(m.token, null, [{ data: pic, name: 'a.png', type: 'image/png' }]), 400, 'VALIDATION'],
      ['a text file renamed .png', await send(m.token, 'see picture', [{ data: Buffer.from('I am plain text, not a picture.\n'.repeat(20)), name: 'shot.png', type: 'image/png' }]), 400, 'IMAGE_INVALID'],
      ['a png signature on junk', await send(m.token, 'see picture', [{ data: Buffer.concat([pic.subarray(0, 16), Buffer.alloc(400, 7)]), name: 'shot.png', type: 'image/png' }]), 400, 'IMAGE_INVALID'],
      ['a gif', await send(m.token, 'see picture', [{ data: Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1'), name: 'a.gif', type: 'image/gif' }]), 400, 'IMAGE_INVALID'],
      ['5 MB + 1 byte', await send(m.token, 'big', [{ data: Buffer.concat([pic.subarray(0, 8), Buffer.alloc(5 * 1024 * 1024 + 1 - 8)]), name: 'big.png', type: 'image/png' }]), 400, 'IMAGE_INVALID'],
      ['4 images', await send(m.token, 'four', [pic, pic, pic, pic].map((data, i) => ({ data, name: `${i}.png`, type: 'image/png' }))), 400, 'IMAGE_INVALID'],
      ['another file field', await send(m.token, 'field', [{ data: pic, name: 'a.png', type: 'image/png', field: 'proof' }]), 400, 'IMAGE_INVALID'],
      ['one good and one fake', await send(m.token, 'mixed', [{ data: pic, name: 'a.png', type: 'image/png' }, { data: Buffer.from('<svg/>'), name: 'b.jpg', type: 'image/jpeg' }]), 400, 'IMAGE_INVALID'],
    ];
    // The text twice (an over-long one first): the last was kept and the first dropped unsaid; now refused.
    const twice = new FormData();
    twice.append('content', 'x'.repeat(141));
    twice.append('content', 'short');
    const dup = await fetch(`${t.url}/wps/feedback`, { method: 'PUT', headers: { authorization: `Bearer ${m.token}` }, body: twice });
    cases.push(['the text twice', { status: dup.status, json: (await dup.json()) as Awaited<ReturnType<typeof send>>['json'] }, 400, 'VALIDATION']);
    for (const [name, r, status, code] of cases) {
      expect(r.status, name).toBe(status);
      expect(r.json, name).toMatchObject({ success: false, code });
    }
    expect(await count(m.memberId)).toEqual({ f: 0, i: 0 });
    // JSON instead of multipart, no session, a trial session
    const json = await call('/wps/feedback', { method: 'PUT', token: m.token, body: { content: 'hi' } });
    expect(json.status).toBe(415);
    expect((await send(null, 'guest')).status).toBe(401);
    const trial = (await call<{ token: string }>('/wps/session/login/freeplay', { body: { platform: 'W' } })).json!.value!.token;
    expect((await send(trial, 'trial')).json).toMatchObject({ success: false, code: 'TRIAL_FORBIDDEN' });
    // Exactly 3 images of at most 5 MB are fine.
    const ok = await send(m.token, 'three', [pic, JPEG, pic].map((data, i) => ({ data, name: `${i}.bin`, type: 'application/octet-stream' })));
    expect(ok.status).toBe(200);
    expect(await count(m.memberId)).toEqual({ f: 1, i: 3 });
    // "Max 5MB each": an image of exactly 5 MB is fine too (busboy's limit fired on reaching the size).
    const five = exactSizePng(pic, 5 * 1024 * 1024);
    expect(five.length).toBe(5 * 1024 * 1024);
    expect((await send(m.token, 'five', [{ data: five, name: 'five.png', type: 'image/png' }])).status).toBe(200);
  });

  it('bounds how much one member can send in an hour', async () => {
    const m = await member(0);
    for (let i = 0; i < 10; i++) expect((await send(m.token, `note ${i}`)).status).toBe(200);
    expect((await send(m.token, 'one more')).json).toMatchObject({ success: false, code: 'TOO_MANY_REQUESTS' });
  });
});

describe('operators answer feedback in /ops', () => {
  it('support lists and answers once; the player gets a message and a live event and sees the answer', async () => {
    const m = await member(0);
    const sent = await send(m.token, 'Deposit took long', [{ data: JPEG, name: 'receipt.jpg', type: 'image/jpeg' }]);
    const id = sent.json.value!.id;
    const socket = await connectSocket(t.url, { token: m.token });
    try {
      const list = await call<{ list: Array<{ id: string; account: string; status: string }> }>('/ops/api/feedback?status=open', { token: ops.get('support')! });
      expect(list.status).toBe(200);
      expect(list.json!.value!.list.find((f) => f.id === id)).toMatchObject({ account: m.account, status: 'open' });
      const img = await fetch(`${t.url}/ops/api/feedback/${id}/images/0`, { headers: { authorization: `Bearer ${ops.get('support')}` } });
      expect(img.headers.get('content-type')).toBe('image/jpeg');
      expect(Buffer.from(await img.arrayBuffer()).equals(JPEG)).toBe(true);

      // finance may not read or answer feedback
      expect((await call(`/ops/api/feedback/${id}/answer`, { token: ops.get('finance')!, body: { answer: 'no' } })).status).toBe(403);
      expect((await call('/ops/api/feedback', { token: ops.get('finance')! })).status).toBe(403);
      // no operator, a member token
      expect((await call(`/ops/api/feedback/${id}/answer`, { body: { answer: 'x' } })).status).toBe(401);
      expect((await call(`/ops/api/feedback/${id}/answer`, { token: m.token, body: { answer: 'x' } })).status).toBe(401);
      // bad bodies
      expect((await call(`/ops/api/feedback/${id}/answer`, { token: ops.get('support')!, body: { answer: '  ' } })).status).toBe(400);
      expect((await call(`/ops/api/feedback/${id}/answer`, { token: ops.get('support')!, body: { answer: 'y'.repeat(1001) } })).status).toBe(400);
      expect((await call('/ops/api/feedback/999999999/answer', { token: ops.get('support')!, body: { answer: 'x' } })).status).toBe(404);

      const answered = await call<{ status: string; answer: string; answeredBy: string }>(`/ops/api/feedback/${id}/answer`, { token: ops.get('support')!, body: { answer: 'Sorry for the wait: it is credited now.' } });
      expect(answered.json?.value).toMatchObject({ status: 'answered', answer: 'Sorry for the wait: it is credited now.', answeredBy: 'fb_support' });
      const again = await call(`/ops/api/feedback/${id}/answer`, { token: ops.get('administrator')!, body: { answer: 'second' } });
      expect(again.status).toBe(409);

      const ev = await waitFor(() => socket.received.find((e) => e.type === 'message.received'), 'message.received');
      expect(ev.payload).toMatchObject({ kind: 'feedback_answered', unreadCount: 1 });
      const msgs = await call<{ list: Array<{ kind: string; params: Record<string, unknown> }> }>('/wps/v2/messages', { token: m.token });
      expect(msgs.json!.value!.list[0]).toMatchObject({ kind: 'feedback_answered', params: { reference: `F${id}` } });
      const mine = await call<{ list: Sent[] }>('/wps/feedback', { token: m.token });
      expect(mine.json!.value!.list[0]).toMatchObject({ id, status: 'answered', answer: 'Sorry for the wait: it is credited now.' });
      const audit = await t.portal.db.query('SELECT 1 FROM audit_log WHERE action = $1 AND target_id = $2', ['feedback.answer', id]);
      expect(audit.rows).toHaveLength(1);
    } finally {
      socket.close();
    }
  });
});

/** `png` grown to exactly `size` bytes by a private ancillary chunk before IEND (a valid PNG). */
function exactSizePng(png: Buffer, size: number): Buffer {
  const iend = png.length - 12;
  const dataLen = size - png.length - 12;
  const type = Buffer.from('prVt', 'latin1');
  const data = Buffer.alloc(dataLen, 0x20);
  const len = Buffer.alloc(4);
  len.writeUInt32BE(dataLen);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([type, data])) >>> 0);
  return Buffer.concat([png.subarray(0, iend), len, type, data, crc, png.subarray(iend)]);
}
