import type { Request } from 'express';
import { systemCalls } from '@portal/contracts/api/system';
import { contentCalls } from '@portal/contracts/api/content';
import { gameCalls } from '@portal/contracts/api/games';
import { SUPPORTED_LANGUAGES } from '@portal/contracts/domain/constants';
import { BOOT_DATA_ELEMENT_ID, bootUrl, homeAnnouncementsQuery, hotGamesQuery, popupsQuery, scriptSafeJson } from '@portal/contracts/domain/boot-data';
import { merchantAudience, type TEventEnvelope } from '@portal/contracts/events/events';
import { currentSeq } from '../bus/outbox.ts';
import type { Queryable } from '../db/db.ts';
import type { BootCache } from '../modules/boot-cache/boot-cache.ts';
import type { Merchant, MerchantDirectory } from '../modules/merchants/merchant-directory.ts';

/** The calls a guest's first page sends before it can paint the home page's first screen, per merchant. */
function bootCalls(m: Merchant): Array<{ path: string; query: Record<string, unknown> }> {
  const out: Array<{ path: string; query: Record<string, unknown> }> = [
    { path: systemCalls.status.path, query: {} },
    { path: systemCalls.whitelabel.path, query: {} },
    { path: systemCalls.domainRoute.path, query: {} },
    { path: gameCalls.gameVendor.path, query: { merchantCode: m.code } },
  ];
  // The client picks the language (stored choice, else the brand's default): both are sent.
  for (const lang of SUPPORTED_LANGUAGES) {
    out.push({ path: contentCalls.announcements.path, query: homeAnnouncementsQuery(lang) });
    out.push({ path: contentCalls.announcements.path, query: popupsQuery(lang) });
    out.push({ path: gameCalls.hotGames.path, query: hotGamesQuery(lang) });
  }
  return out;
}

/**
 * index.html's boot data (contracts/src/domain/boot-data.ts): the bootstrap cache's visitor answers
 * of the calls above, and the seq of the merchant's audience they reflect, so that the client's first
 * socket connection catches up from that seq (events after it arrive and invalidate what they change)
 * instead of re-reading every query.
 *
 * The seq is the last one of the merchant audience this node has applied to its bootstrap cache (from
 * the bus, or its own commits), not the database's: a database seq could be ahead of the cached bytes
 * while the bus is still delivering the invalidation. The outbox writes a change's `content.changed`
 * (cache audience) before its `content.published` (merchant audience), and the bus delivers in outbox
 * order, so when the merchant seq S has been seen here, every cache drop it implies has been applied.
 * The first time a merchant is asked for on this node, its seq is read from the database, and then
 * the merchant directory and the merchant's cached answers are dropped, so everything served after
 * reflects at least that seq. An older answer than the seq is never served; a newer one only means the
 * client hears again about a change it already shows (the cache mapping is idempotent).
 */
export function createBootData(deps: {
  db: Queryable;
  bootCache: BootCache;
  merchants: MerchantDirectory;
  ipOf: (req: Request) => string;
  regionOf: (req: Request) => string | null;
}) {
  const seqs = new Map<string, number>();
  const starting = new Map<string, Promise<void>>();

  /** Events applied to the bootstrap cache (after it applied them): the merchant audiences' seqs move. */
  function observe(events: readonly TEventEnvelope[]) {
    for (const e of events) {
      if (!e.audience.startsWith('merchant:')) continue;
      const code = e.audience.slice('merchant:'.length);
      const cur = seqs.get(code);
      if (cur !== undefined && e.seq > cur) seqs.set(code, e.seq);
    }
  }

  function start(code: string): Promise<void> {
    let p = starting.get(code);
    if (!p) {
      p = (async () => {
        const seq = await currentSeq(deps.db, merchantAudience(code));
        deps.merchants.invalidate();
        deps.bootCache.invalidate(code, ['merchant']);
        seqs.set(code, Math.max(seq, seqs.get(code) ?? 0));
      })().finally(() => starting.delete(code));
      starting.set(code, p);
    }
    return p;
  }

  /** The `<script type="application/json" id="boot-data">` element for this request, or null (no merchant). */
  async function element(req: Request): Promise<string | null> {
    const host = req.hostname || undefined;
    let merchant = await deps.merchants.resolve({ host });
    if (!merchant) return null;
    if (!seqs.has(merchant.code)) {
      await start(merchant.code);
      merchant = await deps.merchants.resolve({ host });
      if (!merchant) return null;
    }
    const seq = seqs.get(merchant.code) ?? 0;
    const m = merchant;
    const ip = deps.ipOf(req);
    const region = deps.regionOf(req);
    const hostName = (req.hostname || m.mainDomain).toLowerCase();
    const calls: Record<string, unknown> = {};
    const answers = await Promise.all(
      bootCalls(m).map(async (c) => {
        const url = bootUrl(c.path, c.query);
        const q = url.indexOf('?');
        const body = await deps.bootCache.answer(c.path, q < 0 ? '' : url.slice(q + 1), m, ip, region, hostName);
        return [url, body] as const;
      }),
    );
    for (const [url, body] of answers) if (body) calls[url] = JSON.parse(body.toString('utf8'));
    const data = { v: 1, seq: { [merchantAudience(m.code)]: seq }, calls };
    return `<script type="application/json" id="${BOOT_DATA_ELEMENT_ID}">${scriptSafeJson(data)}</script>`;
  }

  return { observe, element, seqOf: (code: string) => seqs.get(code) };
}
export type BootData = ReturnType<typeof createBootData>;
