import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseQueryString } from 'node:querystring';
import type { Express, NextFunction, Request, Response } from 'express';
import type { z } from 'zod';
import type { CallDef } from '@portal/contracts/api/envelope';
import { CONTENT_SCOPES, type ContentScope, type TEventEnvelope } from '@portal/contracts/events/events';
import { AppError } from '../../app/errors.ts';
import { ErrorCode } from '@portal/contracts/api/errors';
import { authorize, zodDetails } from '../../app/http.ts';
import type { Merchant } from '../merchants/merchant-directory.ts';

/**
 * The bootstrap cache: the answers every visitor's first page load asks for (system status,
 * whitelabel, domain route, registration settings, game menus, vendors, hot games, winner board,
 * announcements, help centre), kept in memory as the exact bytes sent, with a strong ETag.
 *
 * Key: merchant, call, the parts of the query the answer depends on, and a variant (announcements:
 * member or visitor, since popups differ; status and domain route: the visitor's system status). The
 * visitor's IP and the request's host name are spliced into the stored bytes at their slots, never
 * stored per visitor. No answer depends on which member asks.
 *
 * Exactness: an entry is built from one Merchant object (the directory keeps the object while its
 * row is unchanged) and is only served for that object; table data is dropped by scope when a
 * `content.changed` (or `winner.posted`) event arrives, from this node's own commit at once
 * (onLocalCommit) and from every node through the bus. A load that began before an invalidation is
 * handed to the requests that were already waiting for it but never stored (generation per scope).
 * Concurrent misses of one key share one load (single flight). Entries also end at `expiresAt`
 * (announcements: the next start or end of one) and after maxAgeMs at the latest, as a backstop.
 */

/** Placeholders in a cached value, replaced per request by the visitor's IP and the request's host name. */
export const IP_SLOT = '\u0000ip\u0000';
export const HOST_SLOT = '\u0000host\u0000';
const SLOTS: Array<[string, 'ip' | 'host']> = [[JSON.stringify(IP_SLOT), 'ip'], [JSON.stringify(HOST_SLOT), 'host']];

export type Variant = { member: boolean; status: 0 | 1 | 2 };

export type CachedCallSpec<Q> = {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  def: CallDef<z.ZodType<Q> | undefined, undefined, any>;
  /** Tables the answer reads, beside the merchant row. */
  scopes: ContentScope[];
  /** The parts of the parsed query the answer depends on (default: none). */
  key?: (query: Q) => string;
  /** The answer differs for members (announcement popups). */
  byMember?: boolean;
  /** The answer depends on the visitor's system status (maintenance or blocked address). */
  byStatus?: boolean;
  /** Served during maintenance and region restriction (system calls), as the API router does. */
  open?: boolean;
  load(input: { merchant: Merchant; query: Q; variant: Variant }): Promise<{ value: unknown; expiresAt?: number }>;
};

type Entry = {
  merchant: Merchant;
  scopes: ContentScope[];
  expiresAt: number;
  /** Without slots: the whole body and its ETag. */
  body: Buffer | null;
  etag: string | null;
  /** With slots: the text between them, and which slot follows each part. */
  parts: Buffer[];
  slots: Array<'ip' | 'host'>;
};

type Flight = { merchant: Merchant; promise: Promise<Entry> };
type Bucket = { gen: Record<ContentScope, number>; entries: Map<string, Entry>; inflight: Map<string, Flight> };

const JSON_TYPE = 'application/json; charset=utf-8';
const CACHE_CONTROL = 'private, no-cache';
const MAX_ENTRIES_PER_MERCHANT = 512;
const MAX_QUERY_MEMO = 2048;

function etagOf(body: Buffer | string): string {
  return `"${createHash('sha1').update(body).digest('base64url')}"`;
}

/** If-None-Match matches (weak comparison, as RFC 9110 asks for If-None-Match). */
export function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header === etag) return true;
  if (header.trim() === '*') return true;
  for (const part of header.split(',')) {
    const t = part.trim();
    if ((t.startsWith('W/') ? t.slice(2) : t) === etag) return true;
  }
  return false;
}

function serialize(merchant: Merchant, scopes: ContentScope[], value: unknown, expiresAt: number): Entry {
  const text = JSON.stringify({ success: true, value });
  const parts: Buffer[] = [];
  const slots: Array<'ip' | 'host'> = [];
  let rest = text;
  for (;;) {
    let at = -1;
    let which: [string, 'ip' | 'host'] | null = null;
    for (const s of SLOTS) {
      const i = rest.indexOf(s[0]);
      if (i >= 0 && (at < 0 || i < at)) {
        at = i;
        which = s;
      }
    }
    if (!which) break;
    parts.push(Buffer.from(rest.slice(0, at)));
    slots.push(which[1]);
    rest = rest.slice(at + which[0].length);
  }
  parts.push(Buffer.from(rest));
  if (!slots.length) return { merchant, scopes, expiresAt, body: parts[0]!, etag: etagOf(parts[0]!), parts: [], slots: [] };
  return { merchant, scopes, expiresAt, body: null, etag: null, parts, slots };
}

/** The bytes and ETag of an entry for one request. */
function render(e: Entry, ip: string, host: string): { body: Buffer; etag: string } {
  if (e.body) return { body: e.body, etag: e.etag! };
  const chunks: Buffer[] = [];
  for (let i = 0; i < e.slots.length; i++) {
    chunks.push(e.parts[i]!, Buffer.from(JSON.stringify(e.slots[i] === 'ip' ? ip : host)));
  }
  chunks.push(e.parts[e.parts.length - 1]!);
  const body = Buffer.concat(chunks);
  return { body, etag: etagOf(body) };
}

/** Write an entry (200, or 304 when If-None-Match names its ETag); headers already set on res are kept. */
function write(res: ServerResponse, e: Entry, ip: string, host: string, ifNoneMatch: string | undefined, extra: Array<[string, string]> = []) {
  const { body, etag } = render(e, ip, host);
  const headers: string[] = [];
  for (const [k, v] of extra) headers.push(k, v);
  if (matchesEtag(ifNoneMatch, etag)) {
    headers.push('ETag', etag, 'Cache-Control', CACHE_CONTROL);
    res.writeHead(304, headers);
    res.end();
    return;
  }
  headers.push('Content-Type', JSON_TYPE, 'Content-Length', String(body.length), 'ETag', etag, 'Cache-Control', CACHE_CONTROL);
  res.writeHead(200, headers);
  res.end(body);
}

export type BootCache = ReturnType<typeof createBootCache>;

export function createBootCache(opts: { maxAgeMs?: number; checkResponses?: boolean } = {}) {
  const maxAgeMs = opts.maxAgeMs ?? 60_000;
  const buckets = new Map<string, Bucket>();
  const specs: Array<CachedCallSpec<unknown>> = [];
  const byPath = new Map<string, number>();
  const queryMemo = new Map<string, { ok: true; key: string; query: unknown } | { ok: false }>();
  const stats = { hits: 0, misses: 0, loads: 0, invalidations: 0 };

  function bucketOf(code: string): Bucket {
    let b = buckets.get(code);
    if (!b) {
      b = { gen: Object.fromEntries(CONTENT_SCOPES.map((s) => [s, 0])) as Record<ContentScope, number>, entries: new Map(), inflight: new Map() };
      buckets.set(code, b);
    }
    return b;
  }

  function register<Q>(spec: CachedCallSpec<Q>): number {
    const i = specs.push(spec as CachedCallSpec<unknown>) - 1;
    byPath.set(spec.def.path, i);
    return i;
  }

  /** The parsed query and its key part, memoized by the raw query string (bounded). */
  function queryOf(i: number, rawQuery: string) {
    const memoKey = `${i}?${rawQuery}`;
    let m = queryMemo.get(memoKey);
    if (m) return m;
    const spec = specs[i]!;
    const parsed = spec.def.query ? spec.def.query.safeParse(parseQueryString(rawQuery)) : { success: true as const, data: undefined };
    m = parsed.success ? { ok: true, key: spec.key ? spec.key(parsed.data as never) : '', query: parsed.data } : { ok: false };
    if (queryMemo.size >= MAX_QUERY_MEMO) queryMemo.clear();
    queryMemo.set(memoKey, m);
    return m;
  }

  const entryKey = (i: number, spec: CachedCallSpec<unknown>, qkey: string, v: Variant) =>
    `${i}|${spec.byMember ? (v.member ? 'm' : 'v') : ''}${spec.byStatus ? v.status : ''}|${qkey}`;

  /** A stored entry for this merchant object that has not expired, without waiting. */
  function peek(merchant: Merchant, key: string, now: number): Entry | undefined {
    const e = buckets.get(merchant.code)?.entries.get(key);
    return e && e.merchant === merchant && e.expiresAt > now ? e : undefined;
  }

  function get(i: number, merchant: Merchant, key: string, query: unknown, variant: Variant): Promise<Entry> | Entry {
    const now = Date.now();
    const hit = peek(merchant, key, now);
    if (hit) {
      stats.hits++;
      return hit;
    }
    stats.misses++;
    const b = bucketOf(merchant.code);
    const flying = b.inflight.get(key);
    if (flying && flying.merchant === merchant) return flying.promise;
    const spec = specs[i]!;
    const gens = spec.scopes.map((s) => b.gen[s]);
    stats.loads++;
    const promise = (async () => {
      const { value, expiresAt } = await spec.load({ merchant, query, variant });
      if (opts.checkResponses) {
        const check = spec.def.value.safeParse(value);
        if (!check.success) throw new Error(`response of ${spec.def.path} breaks its contract: ${JSON.stringify(zodDetails(check.error))}`);
      }
      return serialize(merchant, spec.scopes, value, Math.min(expiresAt ?? Infinity, now + maxAgeMs));
    })();
    const flight: Flight = { merchant, promise };
    b.inflight.set(key, flight);
    promise.then(
      (entry) => {
        if (b.inflight.get(key) === flight) b.inflight.delete(key);
        // Store only what no invalidation overtook, in the bucket that is still current.
        const current = buckets.get(merchant.code) === b && spec.scopes.every((s, j) => b.gen[s] === gens[j]);
        if (current && (b.entries.size < MAX_ENTRIES_PER_MERCHANT || b.entries.has(key))) b.entries.set(key, entry);
      },
      () => {
        if (b.inflight.get(key) === flight) b.inflight.delete(key);
      },
    );
    return promise;
  }

  /**
   * Drop what a merchant's visitors are shown of these scopes ('*': every merchant). `merchant` drops
   * the merchant's whole bucket (every answer reads the merchant row).
   */
  function invalidate(code: string | '*', scopes: readonly ContentScope[]) {
    stats.invalidations++;
    const codes = code === '*' ? [...buckets.keys()] : [code];
    for (const c of codes) {
      const b = buckets.get(c);
      if (!b) continue;
      if (scopes.includes('merchant')) {
        buckets.delete(c);
        continue;
      }
      for (const s of scopes) b.gen[s]++;
      for (const [k, e] of b.entries) if (e.scopes.some((s) => scopes.includes(s))) b.entries.delete(k);
      for (const [k] of b.inflight) {
        const spec = specs[Number(k.slice(0, k.indexOf('|')))]!;
        if (spec.scopes.some((s) => scopes.includes(s))) b.inflight.delete(k);
      }
    }
  }

  /** The scopes an event on the bus (or committed here) invalidates, by merchant code. */
  function scopesOfEvent(e: TEventEnvelope): { code: string; scopes: ContentScope[] } | null {
    const code = e.audience.slice(e.audience.indexOf(':') + 1);
    if (e.type === 'content.changed' && e.audience.startsWith('cache:')) {
      return { code, scopes: (e as TEventEnvelope<'content.changed'>).payload.scopes };
    }
    if (e.type === 'winner.posted' && e.audience.startsWith('merchant:')) return { code, scopes: ['winners'] };
    if (e.type === 'system.maintenance' && e.audience.startsWith('merchant:')) return { code, scopes: ['merchant'] };
    // The operator console's site and games pages (ops/site-ops.ts, ops/games-ops.ts): settings live in
    // the merchant row; vendors and games (maintenance, order, hot rank) in the catalogue.
    if (e.type === 'system.changed' && e.audience.startsWith('merchant:')) {
      const parts = (e as TEventEnvelope<'system.changed'>).payload.parts;
      const scopes: ContentScope[] = parts.some((p) => p !== 'games') ? ['merchant'] : [];
      if (parts.includes('games')) scopes.push('games');
      return scopes.length ? { code, scopes } : null;
    }
    return null;
  }

  /**
   * The Express handler of a cached call (after the API router's merchant, session and maintenance
   * checks): the same entries the fast path serves.
   */
  function mount<Q>(app: Express, spec: CachedCallSpec<Q>) {
    const i = register(spec);
    const method = spec.def.method.toLowerCase() as 'get';
    app[method](spec.def.path, async (req: Request, res: Response, next: NextFunction) => {
      try {
        authorize(spec.def, req.ctx);
        const q = queryOf(i, rawQueryOf(req.originalUrl));
        if (!q.ok) {
          const parsed = spec.def.query!.safeParse(req.query ?? {});
          throw new AppError(ErrorCode.VALIDATION, 'Invalid query', parsed.success ? [] : zodDetails(parsed.error));
        }
        const ctx = req.ctx;
        const variant: Variant = { member: ctx.session !== null, status: spec.byStatus ? statusOf(ctx.merchant, ctx.ip, ctx.region ?? null) : 0 };
        const key = entryKey(i, specs[i]!, q.key, variant);
        const e = await get(i, ctx.merchant, key, q.query, variant);
        write(res, e, ctx.ip, (req.hostname || ctx.merchant.mainDomain).toLowerCase(), req.headers['if-none-match']);
      } catch (err) {
        next(err);
      }
    });
  }

  let statusOf: (m: Merchant, ip: string, region: string | null) => 0 | 1 | 2 = () => 0;

  return {
    stats,
    mount,
    invalidate,
    scopesOfEvent,
    /** The visitor's system status (system-routes' systemStatusOf), set once by whoever mounts the calls. */
    setStatusOf(fn: (m: Merchant, ip: string, region: string | null) => 0 | 1 | 2) {
      statusOf = fn;
    },
    /** Apply a batch of events: returns whether any touched the merchant rows (the directory must reload). */
    applyEvents(events: TEventEnvelope[]): boolean {
      let merchantChanged = false;
      for (const e of events) {
        const s = scopesOfEvent(e);
        if (!s) continue;
        if (s.scopes.includes('merchant')) merchantChanged = true;
        invalidate(s.code, s.scopes);
      }
      return merchantChanged;
    },
    /**
     * Serve a cache hit straight from Node's request handler, before Express: only a plain GET of a
     * cached call's exact path whose merchant is known now and whose entry is stored; anything else
     * (a miss, a member's announcements, maintenance on a closed call, an odd URL) returns false and
     * goes through Express as before.
     */
    fastPath(deps: {
      resolveNow: (input: { host?: string | undefined; code?: string | undefined }) => Merchant | null | undefined;
      ipOf: (req: IncomingMessage) => string;
      /** The visitor's country from the trusted proxy's header, or null (as the API router's context). */
      regionOf: (req: IncomingMessage) => string | null;
      hostOf: (req: IncomingMessage) => string | undefined;
      isSecure: (req: IncomingMessage) => boolean;
      headers: { plain: Array<[string, string]>; secure: Array<[string, string]> };
    }) {
      return (req: IncomingMessage, res: ServerResponse): boolean => {
        if (req.method !== 'GET') return false;
        // A GET with a body goes through Express, whose body parser judges it as before.
        if (req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] ?? '0') !== '0') return false;
        const url = req.url ?? '';
        const q = url.indexOf('?');
        const path = q < 0 ? url : url.slice(0, q);
        const i = byPath.get(path);
        if (i === undefined) return false;
        if (url.includes('%00') || url.includes('\u0000')) return false;
        const spec = specs[i]!;
        if (spec.byMember && req.headers.authorization !== undefined) return false;
        const hostname = deps.hostOf(req);
        const code = req.headers['x-merchant-code'];
        const merchant = deps.resolveNow({ host: hostname, code: typeof code === 'string' ? code : undefined });
        if (!merchant) return false;
        const ip = deps.ipOf(req);
        const status = spec.byStatus || !spec.open ? statusOf(merchant, ip, deps.regionOf(req)) : 0;
        if (!spec.open && status !== 0) return false;
        const parsed = queryOf(i, q < 0 ? '' : url.slice(q + 1));
        if (!parsed.ok) return false;
        const variant: Variant = { member: false, status: spec.byStatus ? status : 0 };
        const e = peek(merchant, entryKey(i, spec, parsed.key, variant), Date.now());
        if (!e) return false;
        stats.hits++;
        write(res, e, ip, (hostname || merchant.mainDomain).toLowerCase(), req.headers['if-none-match'], deps.isSecure(req) ? deps.headers.secure : deps.headers.plain);
        return true;
      };
    },
  };
}

function rawQueryOf(url: string): string {
  const q = url.indexOf('?');
  return q < 0 ? '' : url.slice(q + 1);
}
