import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

// A shared machine can be slow: each test makes members and operators (password hashing).
vi.setConfig({ testTimeout: 120_000 });
import { deflateSync } from 'node:zlib';
import type { TAnnouncements, TArticle } from '@portal/contracts/api/content';
import type { TOpsAnnouncement, TOpsArticle, TOpsBanner, TOpsCampaign } from '@portal/contracts/api/ops-content';
import type { TMessage } from '@portal/contracts/api/wallet';
import { connectSocket, startTestPortal, waitFor, type TestPortal, type TestSocket } from '../../testing/test-portal.ts';
import { apiOn, testMembers, type TestMember } from '../../testing/test-members.ts';
import { OPS_TOTP_SECRET, opsTotp } from '../../testing/ops-totp.ts';
import { sniffContentImage } from './content-ops.ts';

let t: TestPortal;
const call = apiOn(() => t.url);
const member = testMembers(() => t.url, { prefix: 'ct' });
const tokens = { ct_admin: '', ct_content: '', ct_finance: '', ct_support: '' };
const sockets: TestSocket[] = [];

/** A real 1x1 PNG (signature, IHDR, IDAT, IEND). */
function tinyPng(): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (b: Buffer) => {
    let c = 0xffffffff;
    for (const x of b) c = crcTable[(c ^ x) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const td = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const c = Buffer.alloc(4);
    c.writeUInt32BE(crc(td));
    return Buffer.concat([len, td, c]);
  };
  const ihdr = Buffer.from([0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr), chunk('IDAT', deflateSync(Buffer.from([0, 255, 0, 0]))), chunk('IEND', Buffer.alloc(0)),
  ]);
}

async function upload(token: string, data: Buffer, type = 'image/png') {
  const res = await fetch(`${t.url}/ops/api/content/images`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': type }, body: data });
  return { status: res.status, json: (await res.json()) as { success: boolean; code?: string; value?: { id: number; url: string } } };
}

const announcementBody = (over: Record<string, unknown> = {}) => ({
  kind: 'PL', execution: null, promotionType: null, startAt: new Date(Date.now() - 60_000).toISOString(), endAt: null, sort: -5, published: true,
  en: { title: 'Server upgrade tonight', content: 'Short pause at 02:00.' }, ty: { title: 'Upgrade ng server ngayong gabi', content: 'Maikling hinto sa 02:00.' },
  ...over,
});

beforeAll(async () => {
  t = await startTestPortal();
  for (const [name, roles] of [['ct_admin', ['administrator']], ['ct_content', ['content']], ['ct_finance', ['finance']], ['ct_support', ['support']]] as const) {
    await t.portal.cashier.operators.createOperator('DEMO', name, 'Content12345', [...roles], { totpSecret: OPS_TOTP_SECRET });
    tokens[name] = (await call<{ token: string }>('/ops/api/session/login', { body: { username: name, password: 'Content12345', totp: await opsTotp(name, t.url) } })).json!.value!.token;
  }
}, 240_000);
afterAll(async () => {
  for (const s of sockets) s.close();
  await t?.stop();
});

describe('announcements from the console', () => {
  it('publishes in EN and TY: players see it in their language at once, open pages are told, the change is audited', async () => {
    const guest = await connectSocket(t.url, {});
    sockets.push(guest);
    const before = await call<TAnnouncements>('/wps/relay/MCSFE_getListAnnouncements?types=PL&language=TY');
    expect(before.status).toBe(200);
    const made = await call<TOpsAnnouncement>('/ops/api/content/announcements', { token: tokens.ct_content, body: announcementBody() });
    expect(made.status, made.text).toBe(200);
    const id = String(made.json!.value!.id);
    // the bootstrap cache was dropped: the next answer has it, per language
    const ty = await call<TAnnouncements>('/wps/relay/MCSFE_getListAnnouncements?types=PL&language=TY');
    expect(ty.json!.value!.notices.find((n) => n.id === id)).toMatchObject({ title: 'Upgrade ng server ngayong gabi' });
    expect(ty.json!.value!.notices.length).toBe(before.json!.value!.notices.length + 1);
    const en = await call<TAnnouncements>('/wps/relay/MCSFE_getListAnnouncements?types=PL&language=EN');
    expect(en.json!.value!.notices.find((n) => n.id === id)).toMatchObject({ title: 'Server upgrade tonight' });
    // the seeded items are one per language too (EN and TY rows grouped)
    expect(new Set(ty.json!.value!.notices.map((n) => n.id)).size).toBe(ty.json!.value!.notices.length);
    await waitFor(() => guest.received.find((e) => e.type === 'content.published' && (e.payload as { parts: string[] }).parts.includes('announcements')), 'content.published');
    const audit = await t.portal.db.query<{ action: string }>(`SELECT action FROM audit_log WHERE target_type = 'announcement' AND target_id = $1`, [id]);
    expect(audit.rows.map((r) => r.action)).toEqual(['announcement.create']);

    // a draft (unpublished) disappears; a schedule in the future is not shown yet
    const draft = await call<TOpsAnnouncement>(`/ops/api/content/announcements/${id}`, { method: 'PUT', token: tokens.ct_content, body: announcementBody({ published: false }) });
    expect(draft.status, draft.text).toBe(200);
    expect((await call<TAnnouncements>('/wps/relay/MCSFE_getListAnnouncements?types=PL&language=TY')).json!.value!.notices.some((n) => n.id === id)).toBe(false);
    await call(`/ops/api/content/announcements/${id}`, { method: 'PUT', token: tokens.ct_content, body: announcementBody({ startAt: new Date(Date.now() + 3_600_000).toISOString() }) });
    expect((await call<TAnnouncements>('/wps/relay/MCSFE_getListAnnouncements?types=PL&language=TY')).json!.value!.notices.some((n) => n.id === id)).toBe(false);
    expect((await call(`/ops/api/content/announcements/${id}`, { method: 'DELETE', token: tokens.ct_admin })).status).toBe(200);
    expect((await call(`/ops/api/content/announcements/${id}`, { method: 'DELETE', token: tokens.ct_admin })).status).toBe(404);
  });

  it('starts and ends on schedule with nobody touching it: a queued job at each edge tells open pages and drops the cache', async () => {
    const startAt = new Date(Date.now() + 3_600_000);
    const endAt = new Date(Date.now() + 7_200_000);
    const made = await call<TOpsAnnouncement>('/ops/api/content/announcements', { token: tokens.ct_content, body: announcementBody({ startAt: startAt.toISOString(), endAt: endAt.toISOString() }) });
    expect(made.status, made.text).toBe(200);
    const id = String(made.json!.value!.id);
    const keys = [startAt, endAt].map((at) => `DEMO:${id}:${at.toISOString()}`);
    for (const key of keys) expect(await t.portal.jobs.state('content.announcement.edge', key)).toMatchObject({ state: 'queued' });
    // The start comes (the test clock runs its job now): the cache is dropped and open pages are told.
    const guest = await connectSocket(t.url, {});
    sockets.push(guest);
    await t.portal.db.query(`UPDATE announcements SET start_at = now() - interval '1 second' WHERE coalesce(group_id, id) = $1`, [Number(id)]);
    expect((await t.portal.jobs.runNow('content.announcement.edge', keys[0]!)).state).toBe('done');
    await waitFor(() => guest.received.find((e) => e.type === 'content.published' && (e.payload as { parts: string[] }).parts.includes('announcements')), 'content.published at the start');
    expect((await call<TAnnouncements>('/wps/relay/MCSFE_getListAnnouncements?types=PL&language=EN')).json!.value!.notices.some((n) => n.id === id)).toBe(true);
    // A draft or a past edge schedules nothing.
    const draft = await call<TOpsAnnouncement>('/ops/api/content/announcements', { token: tokens.ct_content, body: announcementBody({ published: false, startAt: startAt.toISOString() }) });
    expect(await t.portal.jobs.state('content.announcement.edge', `DEMO:${draft.json!.value!.id}:${startAt.toISOString()}`)).toBeNull();
    for (const del of [id, String(draft.json!.value!.id)]) await call(`/ops/api/content/announcements/${del}`, { method: 'DELETE', token: tokens.ct_admin });
  });

  it('popups by execution: A for visitors, B and F for members', async () => {
    const a = await call<TOpsAnnouncement>('/ops/api/content/announcements', { token: tokens.ct_admin, body: announcementBody({ kind: 'PU', execution: 'A', en: { title: 'Guest popup', content: 'x' }, ty: { title: 'Popup ng bisita', content: 'y' } }) });
    const b = await call<TOpsAnnouncement>('/ops/api/content/announcements', { token: tokens.ct_admin, body: announcementBody({ kind: 'PU', execution: 'B', en: { title: 'Member popup', content: 'x' }, ty: { title: 'Popup ng miyembro', content: 'y' } }) });
    const p = await member(0);
    const guest = await call<TAnnouncements>('/wps/relay/MCSFE_getListAnnouncements?types=PU&language=EN');
    const mem = await call<TAnnouncements>('/wps/relay/MCSFE_getListAnnouncements?types=PU&language=EN', { token: p.token });
    expect(guest.json!.value!.popup.map((x) => x.id)).toContain(String(a.json!.value!.id));
    expect(guest.json!.value!.popup.every((x) => x.execution === 'A')).toBe(true);
    expect(mem.json!.value!.popup.map((x) => x.id)).toContain(String(b.json!.value!.id));
    expect(mem.json!.value!.popup.every((x) => x.execution === 'B' || x.execution === 'F')).toBe(true);
  });

  it('refuses bad input with 400 and changes nothing; TY is required to publish', async () => {
    const count = async () => Number((await t.portal.db.query<{ n: number }>('SELECT count(*)::int AS n FROM announcements')).rows[0]!.n);
    const n = await count();
    for (const body of [
      announcementBody({ ty: { title: '', content: '' } }),
      announcementBody({ kind: 'PU', execution: null }),
      announcementBody({ kind: 'PL', execution: 'A' }),
      announcementBody({ endAt: new Date(Date.now() - 3_600_000).toISOString() }),
      announcementBody({ kind: 'H' }),
      announcementBody({ en: { title: 'x'.repeat(201), content: 'y' } }),
      { ...announcementBody(), extra: 1 },
      // Years before 2000: 0026 (typed for 2026) was a 500 on reading it back, 0099 came back as 1999.
      announcementBody({ startAt: '0026-12-10T10:00:00Z' }),
      announcementBody({ startAt: '0099-03-04T00:00:00+08:00' }),
      announcementBody({ endAt: '0000-01-01T00:00:00Z' }),
    ]) {
      const r = await call('/ops/api/content/announcements', { token: tokens.ct_content, body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.json).toMatchObject({ success: false, code: 'VALIDATION' });
    }
    // a draft may leave TY empty
    expect((await call('/ops/api/content/announcements', { token: tokens.ct_content, body: announcementBody({ published: false, ty: { title: '', content: '' } }) })).status).toBe(200);
    expect(await count()).toBe(n + 1);
    expect((await call('/ops/api/content/announcements/abc', { method: 'PUT', token: tokens.ct_content, body: announcementBody() })).status).toBe(404);
    expect((await call('/ops/api/content/announcements/99999999', { method: 'PUT', token: tokens.ct_content, body: announcementBody() })).status).toBe(404);
  });

  it('only administrator and content may change content; support may read; finance may not; a member token is not an operator', async () => {
    expect((await call('/ops/api/content/announcements', { token: tokens.ct_support })).status).toBe(200);
    expect((await call('/ops/api/content/announcements', { token: tokens.ct_finance })).status).toBe(403);
    const refused = await call('/ops/api/content/announcements', { token: tokens.ct_support, body: announcementBody() });
    expect(refused.status).toBe(403);
    expect(refused.json).toMatchObject({ success: false, code: 'FORBIDDEN' });
    const p = await member(0);
    expect((await call('/ops/api/content/announcements', { token: p.token })).status).toBe(401);
    expect((await call('/ops/api/content/announcements')).status).toBe(401);
  });
});

describe('banners and images', () => {
  it('the seeded demo banners have their Tagalog titles: TY answers them, EN the English ones', async () => {
    const get = async (lang: string) => (await call<TAnnouncements>(`/wps/relay/MCSFE_getListAnnouncements?types=B&language=${lang}`)).json!.value!.banners;
    const en = await get('EN');
    const ty = await get('TY');
    const seeded = en.filter((b) => b.url.startsWith('/img/banner/'));
    expect(seeded.length).toBeGreaterThanOrEqual(5);
    for (const b of seeded) {
      const tyTitle = ty.find((x) => x.id === b.id)?.title;
      expect(tyTitle, b.title).toBeTruthy();
      expect(tyTitle, b.title).not.toBe(b.title);
    }
    expect(ty.map((b) => b.title)).toContain('Bonus sa Pagsalubong 100%');
  });

  it('takes png/jpg/webp by their bytes, refuses others and oversize; a banner shows in the players language', async () => {
    const png = tinyPng();
    expect(sniffContentImage(png)).toBe('image/png');
    expect(sniffContentImage(Buffer.from('RIFF\u0000\u0000\u0000\u0000WEBPVP8 ', 'latin1'))).toBe('image/webp');
    expect(sniffContentImage(Buffer.from([0xff, 0xd8, 0xff, 0xe0]))).toBe('image/jpeg');
    const fake = await upload(tokens.ct_content, Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'image/png');
    expect(fake.status).toBe(415);
    expect(fake.json).toMatchObject({ success: false, code: 'UNSUPPORTED_MEDIA_TYPE' });
    const big = await upload(tokens.ct_content, Buffer.concat([png, Buffer.alloc(2 * 1024 * 1024)]));
    expect(big.status).toBe(413);
    expect((await upload(tokens.ct_content, Buffer.alloc(0))).status).toBe(400);
    expect((await upload(tokens.ct_support, png)).status).toBe(403);

    const img = await upload(tokens.ct_content, png, 'application/octet-stream');
    expect(img.status).toBe(200);
    const served = await fetch(`${t.url}${img.json.value!.url}`);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await served.arrayBuffer()).equals(png)).toBe(true);

    const bad = await call('/ops/api/content/banners', { token: tokens.ct_content, body: { group: 'w_home', imageId: img.json.value!.id, titleEn: 'Hi', titleTy: '', published: true } });
    expect(bad.status).toBe(400);
    const badLink = await call('/ops/api/content/banners', { token: tokens.ct_content, body: { group: 'w_home', imageId: img.json.value!.id, titleEn: 'Hi', titleTy: 'Kumusta', linkageType: 'URL', linkage: 'javascript:alert(1)', published: true } });
    expect(badLink.status).toBe(400);
    // "//host" is another site (the player pages refuse to follow it): not a route of this one.
    const otherSite = await call('/ops/api/content/banners', { token: tokens.ct_content, body: { group: 'w_home', imageId: img.json.value!.id, titleEn: 'Hi', titleTy: 'Kumusta', linkageType: 'ROUTE', linkage: '//evil.example/x', published: true } });
    expect([otherSite.status, otherSite.json?.code]).toEqual([400, 'VALIDATION']);
    for (const linkage of ['/.//evil.example', '/a//b', '/../x', '/promo/./x']) {
      const r = await call('/ops/api/content/banners', { token: tokens.ct_content, body: { group: 'w_home', imageId: img.json.value!.id, titleEn: 'Hi', titleTy: 'Kumusta', linkageType: 'ROUTE', linkage, published: true } });
      expect(r.status, linkage).toBe(400);
    }
    // A title of invisible characters alone is no title.
    // A banner whose picture is no upload (the seeded ones) can be edited, keeping its picture; a new banner needs an image.
    const seeded = (await t.portal.db.query<{ id: string }>(
      `INSERT INTO banners (merchant_code, grp, url, title, title_ty, image_id, sort, active) VALUES ('DEMO', 'w_home', '/img/banner/seeded-test.svg', 'Seeded', 'Seeded TY', NULL, 9, true) RETURNING id`)).rows[0]!.id;
    const edited = await call<TOpsBanner>(`/ops/api/content/banners/${seeded}`, { token: tokens.ct_content, method: 'PUT', body: { group: 'w_home', imageId: null, titleEn: 'Seeded, renamed', titleTy: 'Seeded TY', linkageType: 'ROUTE', linkage: '/promotions', published: false } });
    expect(edited.status, edited.text).toBe(200);
    expect(edited.json!.value).toMatchObject({ titleEn: 'Seeded, renamed', url: '/img/banner/seeded-test.svg', imageId: null, published: false });
    const noImage = await call('/ops/api/content/banners', { token: tokens.ct_content, body: { group: 'w_home', imageId: null, titleEn: 'Hi', titleTy: 'Kumusta', published: true } });
    expect([noImage.status, noImage.json?.code]).toEqual([400, 'VALIDATION']);
    for (const titleEn of ['\u200b', '\u3164', '\u2800', '\u115f\u1160', '\u034f']) {
      const invisible = await call('/ops/api/content/banners', { token: tokens.ct_content, body: { group: 'w_home', imageId: img.json.value!.id, titleEn, titleTy: 'Kumusta', published: true } });
      expect(invisible.status, JSON.stringify(titleEn)).toBe(400);
    }
    const blankNotice = await call('/ops/api/content/announcements', { token: tokens.ct_content, body: announcementBody({ en: { title: '\u200b', content: '\u200b\u2060' } }) });
    expect(blankNotice.status).toBe(400);
    const unknownImage = await call('/ops/api/content/banners', { token: tokens.ct_content, body: { group: 'w_home', imageId: 99999999, titleEn: 'Hi', titleTy: 'Kumusta', published: true } });
    expect(unknownImage.status).toBe(400);
    const made = await call<TOpsBanner>('/ops/api/content/banners', { token: tokens.ct_content, body: { group: 'w_home', imageId: img.json.value!.id, titleEn: 'Fiesta week', titleTy: 'Linggo ng pista', linkageType: 'ROUTE', linkage: '/promotions', sort: -1, published: true } });
    expect(made.status, made.text).toBe(200);
    const ty = await call<TAnnouncements>('/wps/relay/MCSFE_getListAnnouncements?types=B&language=TY');
    expect(ty.json!.value!.banners.find((b) => b.id === String(made.json!.value!.id))).toMatchObject({ title: 'Linggo ng pista', url: img.json.value!.url });
    await call(`/ops/api/content/banners/${made.json!.value!.id}`, { method: 'PUT', token: tokens.ct_content, body: { group: 'w_home', imageId: img.json.value!.id, titleEn: 'Fiesta week', titleTy: 'Linggo ng pista', published: false } });
    expect((await call<TAnnouncements>('/wps/relay/MCSFE_getListAnnouncements?types=B&language=TY')).json!.value!.banners.some((b) => b.id === String(made.json!.value!.id))).toBe(false);
  });
});

describe('help and news', () => {
  it('help articles need both languages and reach the help centre at once', async () => {
    expect((await call('/ops/api/content/help', { method: 'PUT', token: tokens.ct_content, body: { anchor: 'bonus-rules', en: { title: 'Bonus rules', content: 'Wager 10x.' }, ty: { title: '', content: '' } } })).status).toBe(400);
    expect((await call('/ops/api/content/help', { method: 'PUT', token: tokens.ct_content, body: { anchor: 'Bad Anchor', en: { title: 'a', content: 'b' }, ty: { title: 'c', content: 'd' } } })).status).toBe(400);
    const saved = await call('/ops/api/content/help', { method: 'PUT', token: tokens.ct_content, body: { anchor: 'bonus-rules', create: true, en: { title: 'Bonus rules', content: 'Wager 10x.' }, ty: { title: 'Mga tuntunin ng bonus', content: 'Itaya nang 10x.' } } });
    // a new topic with an anchor in use is refused, the topic kept (it replaced the other's texts)
    const taken = await call('/ops/api/content/help', { method: 'PUT', token: tokens.ct_content, body: { anchor: 'bonus-rules', create: true, en: { title: 'Other', content: 'x' }, ty: { title: 'Iba', content: 'y' } } });
    expect([taken.status, taken.json?.code]).toEqual([409, 'CONFLICT']);
    expect((await call<{ list: Array<{ anchor: string; en: { title: string } }> }>('/ops/api/content/help', { token: tokens.ct_content })).json!.value!.list.find((h) => h.anchor === 'bonus-rules')?.en.title).toBe('Bonus rules');
    expect(saved.status, saved.text).toBe(200);
    const ty = await call<{ list: Array<{ anchor: string; title: string }> }>('/wps/system/helpCenter?lang=TY');
    expect(ty.json!.value!.list.find((h) => h.anchor === 'bonus-rules')?.title).toBe('Mga tuntunin ng bonus');
    expect((await call('/ops/api/content/help/bonus-rules', { method: 'DELETE', token: tokens.ct_content })).status).toBe(200);
    expect((await call<{ list: Array<{ anchor: string }> }>('/wps/system/helpCenter?lang=TY')).json!.value!.list.some((h) => h.anchor === 'bonus-rules')).toBe(false);
    expect((await call('/ops/api/content/help/bonus-rules', { method: 'DELETE', token: tokens.ct_content })).status).toBe(404);
  });

  it('lists the seeded news in EN and TY; drafts stay hidden; publishing dates the article', async () => {
    const en = await call<{ list: Array<{ id: string; title: string }>; total: number }>('/wps/content/news?language=EN');
    const ty = await call<{ list: Array<{ id: string; title: string }>; total: number }>('/wps/content/news?language=TY');
    expect(en.json!.value!.total).toBeGreaterThanOrEqual(3);
    expect(ty.json!.value!.list[0]!.title).not.toBe(en.json!.value!.list[0]!.title);
    const draft = await call<TOpsArticle>('/ops/api/content/articles', { token: tokens.ct_content, body: { published: false, en: { title: 'Draft', summary: '', body: 'Body' }, ty: { title: '', summary: '', body: '' } } });
    expect(draft.status, draft.text).toBe(200);
    expect(draft.json!.value!.publishedAt).toBeNull();
    const id = draft.json!.value!.id;
    expect((await call(`/wps/content/news/${id}`)).status).toBe(404);
    expect((await call(`/ops/api/content/articles/${id}`, { method: 'PUT', token: tokens.ct_content, body: { published: true, en: { title: 'Draft', summary: '', body: 'Body' }, ty: { title: '', summary: '', body: '' } } })).status).toBe(400);
    const pub = await call<TOpsArticle>(`/ops/api/content/articles/${id}`, { method: 'PUT', token: tokens.ct_content, body: { published: true, en: { title: 'Launch', summary: 'S', body: 'Body' }, ty: { title: 'Paglulunsad', summary: 'B', body: 'Katawan' } } });
    expect(pub.json!.value!.publishedAt).not.toBeNull();
    const article = await call<TArticle>(`/wps/content/news/${id}?language=TY`);
    expect(article.json!.value).toMatchObject({ title: 'Paglulunsad', body: 'Katawan' });
    expect((await call('/wps/content/news/abc')).status).toBe(404);
    // An unknown cover is refused naming the article's own field (it said imageId, a banner's).
    const cover = await call(`/ops/api/content/articles/${id}`, { method: 'PUT', token: tokens.ct_content, body: { published: false, coverImageId: 99_999_999, en: { title: 'Draft', summary: '', body: 'Body' }, ty: { title: '', summary: '', body: '' } } });
    expect([cover.status, (cover.json as { details?: unknown } | undefined)?.details]).toEqual([400, [{ path: 'coverImageId', message: 'Upload the image first' }]]);
    expect((await call('/wps/content/news?pageSize=5000')).status).toBe(400);
  });
});

describe('message centre and marketing messages', () => {
  let normal: TestMember;
  let selfExcluded: TestMember;
  let cooling: TestMember;
  beforeAll(async () => {
    normal = await member(0);
    selfExcluded = await member(0);
    cooling = await member(0);
    await t.portal.rg.exclude('DEMO', selfExcluded.memberId, { kind: 'system' }, 'self', '6m');
    await t.portal.rg.exclude('DEMO', cooling.memberId, { kind: 'system' }, 'cooling', '24h');
  }, 120_000);

  it('skips self-excluded and cooling-off players; the recipient gets the message and its unread counts live', async () => {
    const sock = await connectSocket(t.url, { token: normal.token });
    sockets.push(sock);
    const body = { segment: 'accounts', accounts: [normal.account, selfExcluded.account, cooling.account], en: { title: 'Weekend reload', content: '20% this weekend.' }, ty: { title: 'Reload ngayong weekend', content: '20% ngayong weekend.' } };
    const sent = await call<TOpsCampaign>('/ops/api/content/campaigns', { token: tokens.ct_content, body });
    expect(sent.status, sent.text).toBe(200);
    expect(sent.json!.value).toMatchObject({ recipients: 1, skippedExcluded: 2 });
    const got = await waitFor(() => sock.received.find((e) => e.type === 'message.received'), 'message.received');
    expect(got.payload).toMatchObject({ kind: 'marketing', unreadCount: 1, unreadByCategory: { marketing: 1, transaction: 0, system: 0 } });
    const n = await t.portal.db.query<{ member_id: string }>('SELECT member_id FROM messages WHERE campaign_id = $1', [sent.json!.value!.id]);
    expect(n.rows.map((r) => Number(r.member_id))).toEqual([normal.memberId]);
    // the audit trail keeps who sent what to how many
    expect((await t.portal.db.query(`SELECT 1 FROM audit_log WHERE action = 'message.campaign' AND target_id = $1`, [String(sent.json!.value!.id)])).rows.length).toBe(1);
  });

  it('an all-players campaign never reaches an excluded player', async () => {
    const sent = await call<TOpsCampaign>('/ops/api/content/campaigns', { token: tokens.ct_admin, body: { segment: 'all', en: { title: 'Hello', content: 'All' }, ty: { title: 'Kumusta', content: 'Lahat' } } });
    expect(sent.status, sent.text).toBe(200);
    expect(sent.json!.value!.skippedExcluded).toBeGreaterThanOrEqual(2);
    const r = await t.portal.db.query('SELECT 1 FROM messages WHERE campaign_id = $1 AND member_id = ANY($2::bigint[])', [sent.json!.value!.id, [selfExcluded.memberId, cooling.memberId]]);
    expect(r.rows.length).toBe(0);
    const list = await call<{ list: Array<{ id: number }> }>('/ops/api/content/campaigns', { token: tokens.ct_support });
    expect(list.json!.value!.list[0]!.id).toBe(sent.json!.value!.id);
  });

  it('refuses bad campaigns (400) and non-senders (403), nothing sent', async () => {
    const count = async () => Number((await t.portal.db.query<{ n: number }>('SELECT count(*)::int AS n FROM message_campaigns')).rows[0]!.n);
    const n = await count();
    const texts = { en: { title: 'a', content: 'b' }, ty: { title: 'c', content: 'd' } };
    expect((await call('/ops/api/content/campaigns', { token: tokens.ct_content, body: { segment: 'accounts', ...texts } })).status).toBe(400);
    expect((await call('/ops/api/content/campaigns', { token: tokens.ct_content, body: { segment: 'all', accounts: ['x'], ...texts } })).status).toBe(400);
    expect((await call('/ops/api/content/campaigns', { token: tokens.ct_content, body: { segment: 'all', en: texts.en, ty: { title: '', content: '' } } })).status).toBe(400);
    expect((await call('/ops/api/content/campaigns', { token: tokens.ct_content, body: { segment: 'vip', ...texts } })).status).toBe(400);
    // An account the merchant does not have is named, not skipped silently (it answered recipients 0).
    const unknown = await call('/ops/api/content/campaigns', { token: tokens.ct_content, body: { segment: 'accounts', accounts: ['nosuchplayer'], ...texts } });
    expect([unknown.status, unknown.json?.message]).toEqual([400, 'Unknown accounts: nosuchplayer']);
    expect((await call('/ops/api/content/campaigns', { token: tokens.ct_support, body: { segment: 'all', ...texts } })).status).toBe(403);
    expect(await count()).toBe(n);
  });

  it('counts unread per tab, filters by tab, reads one, all of a tab, or all', async () => {
    const p = await member(0);
    await t.portal.db.tx(async (tx) => {
      const { postMessage } = await import('../wallet/messages.ts');
      await postMessage(tx, 'DEMO', p.memberId, 'deposit_credited', { amount: 100 });
      await postMessage(tx, 'DEMO', p.memberId, 'system', {});
    });
    await call('/ops/api/content/campaigns', { token: tokens.ct_content, body: { segment: 'accounts', accounts: [p.account], en: { title: 'Promo', content: 'x' }, ty: { title: 'Promo TY', content: 'y' } } });
    const counts = await call<{ count: number; byCategory: Record<string, number> }>('/wps/relay/CSP_unreadCount', { token: p.token });
    expect(counts.json!.value).toEqual({ count: 3, byCategory: { transaction: 1, system: 1, marketing: 1 } });
    const marketing = await call<{ list: TMessage[]; total: number }>('/wps/v2/messages?category=marketing', { token: p.token });
    expect(marketing.json!.value!.total).toBe(1);
    expect(marketing.json!.value!.list[0]!.texts).toEqual({ EN: { title: 'Promo', content: 'x' }, TY: { title: 'Promo TY', content: 'y' } });
    expect((await call('/wps/v2/messages?category=vip', { token: p.token })).status).toBe(400);
    // the member's other page (another tab, the phone) hears of the read with the new counts
    const otherPage = await connectSocket(t.url, { token: p.token });
    sockets.push(otherPage);
    const one = await call<{ count: number; byCategory: Record<string, number> }>('/wps/v2/messages/read', { token: p.token, body: { ids: [marketing.json!.value!.list[0]!.id] } });
    expect(one.json!.value).toEqual({ count: 2, byCategory: { transaction: 1, system: 1, marketing: 0 } });
    const heard = await waitFor(() => otherPage.received.find((e) => e.type === 'message.read'), 'message.read');
    expect(heard.payload).toEqual({ unreadCount: 2, unreadByCategory: { transaction: 1, system: 1, marketing: 0 } });
    // reading what is already read says nothing
    await call('/wps/v2/messages/read', { token: p.token, body: { ids: [marketing.json!.value!.list[0]!.id] } });
    const tab = await call<{ count: number; byCategory: Record<string, number> }>('/wps/v2/messages/read', { token: p.token, body: { all: true, category: 'transaction' } });
    expect(tab.json!.value).toEqual({ count: 1, byCategory: { transaction: 0, system: 1, marketing: 0 } });
    expect((await call('/wps/v2/messages/read', { token: p.token, body: { category: 'system' } })).status).toBe(400);
    const all = await call<{ count: number }>('/wps/v2/messages/read', { token: p.token, body: { all: true } });
    expect(all.json!.value!.count).toBe(0);
    await waitFor(() => otherPage.received.find((e) => e.type === 'message.read' && (e.payload as { unreadCount: number }).unreadCount === 0), 'message.read to 0');
    // one event per read that changed something: the ids read, the tab, all (not the repeat)
    expect(otherPage.received.filter((e) => e.type === 'message.read').length).toBe(3);
    // another player's ids are not this player's to read
    const other = await member(0);
    expect((await call<{ count: number }>('/wps/v2/messages/read', { token: other.token, body: { ids: [marketing.json!.value!.list[0]!.id] } })).json!.value!.count).toBe(0);
    expect((await call('/wps/relay/CSP_unreadCount')).status).toBe(401);
  });
});

describe("an announcement's date", () => {
  it("is the start's day on the merchant's clock, not in UTC", async () => {
    const { toAnnouncement } = await import('./content-routes.ts');
    const row = { id: 1, group_id: 1, kind: 'PU', language: 'EN', title: 't', content: 'c', promotion_type: null, execution: 'A' as const, start_at: '2026-12-05T20:38:00Z' };
    expect(toAnnouncement(row, 480).startDateStr).toBe('2026-12-06');
    expect(toAnnouncement(row, 0).startDateStr).toBe('2026-12-05');
    expect(toAnnouncement({ ...row, start_at: new Date('2026-12-06T02:00:00Z') }, -300).startDateStr).toBe('2026-12-05');
  });
});
