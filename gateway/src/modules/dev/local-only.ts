import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';

/** 127.0.0.0/8, ::1, and IPv4 loopback written as an IPv4-mapped IPv6 address. */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const a = address.trim().toLowerCase().replace(/^::ffff:/, '');
  if (isIP(a) === 4) return a.startsWith('127.');
  return a === '::1' || a === '0:0:0:0:0:0:0:1';
}

/** Headers a proxy uses to name the client it forwards. */
const FORWARDING_HEADERS = ['x-forwarded-for', 'x-real-ip', 'forwarded'] as const;

/**
 * Whether a request comes from this machine: the development helpers (`/wps/dev/*`, the `/dev-tap`
 * socket namespace, the payment simulator's pages) answer nobody else.
 *
 * Decided from the TCP socket's own remote address, never from Express's `req.ip`: with `trust proxy`
 * set, `req.ip` comes from X-Forwarded-For, which any client writes. A proxy on this machine (nginx,
 * Vite's dev server with `xfwd`) connects from loopback on behalf of remote clients, so a request that
 * carries forwarding headers is local only when every address they name is loopback as well
 * (`Forwarded` is not parsed: it makes a request non-local).
 */
export function isLocalRequest(req: Pick<IncomingMessage, 'headers' | 'socket'>): boolean {
  if (!isLoopbackAddress(req.socket.remoteAddress)) return false;
  for (const name of FORWARDING_HEADERS) {
    const value = req.headers[name];
    if (value === undefined) continue;
    if (name === 'forwarded') return false;
    const hops = (Array.isArray(value) ? value.join(',') : value).split(',').map((h) => h.trim()).filter(Boolean);
    if (!hops.every(isLoopbackAddress)) return false;
  }
  return true;
}
