import { isIP } from 'node:net';
import { AppError, ErrorCode } from '../../app/errors.ts';
import type { Merchant } from './merchant-directory.ts';

/** What a request says about where it was sent: Express's `req.hostname` / `req.host` / `req.protocol`. */
export type RequestHost = { hostname: string | undefined; host: string | undefined; protocol: string };

/** The host name (lower case, no port, no IPv6 brackets) of `host[:port]`. */
export function hostNameOf(host: string): string {
  const h = host.trim().toLowerCase();
  if (h.startsWith('[')) return h.slice(1, h.indexOf(']') > 0 ? h.indexOf(']') : undefined);
  return h.replace(/:\d*$/, '');
}

/** The merchant's domains: `domains[]` and the host of `main_domain`. */
export function merchantHosts(m: Merchant): string[] {
  const hosts = [...m.domains];
  if (m.mainDomain) hosts.push(hostNameOf(m.mainDomain));
  return hosts;
}

export function isLoopbackHost(hostname: string): boolean {
  const h = hostNameOf(hostname);
  if (h === 'localhost' || h.endsWith('.localhost')) return true;
  if (isIP(h) === 4) return h.startsWith('127.');
  return h === '::1';
}

/** A host[:port] a link may be built from: a DNS name or an IP, an optional port, nothing else. */
const SAFE_HOST = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/;

/**
 * The origin of every link the portal sends (password reset, sign-in redirects, anything a person
 * opens later): built from the merchant's configuration, never from a request header.
 *
 * - The request must have come to one of the merchant's own domains (`domains[]` or `main_domain`);
 *   the link is then `https://<main_domain>` (main_domain may carry a port). Production requires TLS
 *   at the proxy, so links are always https.
 * - Outside production only, a request to a loopback host (localhost, 127.0.0.0/8, ::1) gets a link
 *   to that same loopback origin, so `npm start` and the tests produce links that open on the machine
 *   that asked (a forged loopback Host can only point a link at the reader's own machine).
 * - Anything else, including a Host the merchant does not own that reached it through the
 *   X-Merchant-Code header or the default-merchant fallback, is UNKNOWN_MERCHANT (400): no link is
 *   sent to a host that is not the merchant's.
 */
export function linkOrigin(m: Merchant, req: RequestHost, opts: { isProduction: boolean }): string {
  const hostname = hostNameOf(req.hostname ?? '');
  // Loopback first: a merchant whose domain is a loopback name (the second demo site, vn.localhost)
  // gets links to the port it was reached on, not https://vn.localhost with none.
  if (!opts.isProduction && hostname && isLoopbackHost(hostname)) {
    const host = (req.host ?? '').trim().toLowerCase();
    if (SAFE_HOST.test(host) && hostNameOf(host) === hostname) return `${req.protocol === 'https' ? 'https' : 'http'}://${host}`;
  }
  if (hostname && m.mainDomain && merchantHosts(m).includes(hostname)) {
    const main = m.mainDomain.trim().toLowerCase();
    if (SAFE_HOST.test(main)) return `https://${main}`;
  }
  throw new AppError(ErrorCode.UNKNOWN_MERCHANT);
}

/**
 * Where a page the portal sends the player to (a vendor's game page) links back to: the portal origin
 * the player is on, so the session cookie of that host still applies, but only a host the merchant
 * owns. Unlike linkOrigin it never refuses, since a launch must not fail for want of a back link:
 *
 * - a request to one of the merchant's own domains (`domains[]` or `main_domain`): that host as the
 *   request named it (https in production, where TLS ends at the proxy);
 * - outside production only, a loopback request (localhost, 127.0.0.0/8, ::1): that loopback origin, as
 *   linkOrigin does (the demo merchant owns no loopback name; it is reached as the default merchant);
 * - anything else: `https://<main_domain>`; null when the merchant has no usable main domain.
 */
export function returnOrigin(m: Merchant, req: RequestHost, opts: { isProduction: boolean }): string | null {
  const hostname = hostNameOf(req.hostname ?? '');
  const host = (req.host ?? '').trim().toLowerCase();
  // The Host as sent (with its port) is used only when it names the same host Express resolved.
  const isSameHost = hostname !== '' && SAFE_HOST.test(host) && hostNameOf(host) === hostname;
  const scheme = opts.isProduction || req.protocol === 'https' ? 'https' : 'http';
  if (isSameHost && merchantHosts(m).includes(hostname)) return `${scheme}://${host}`;
  if (isSameHost && !opts.isProduction && isLoopbackHost(hostname)) return `${scheme}://${host}`;
  const main = (m.mainDomain ?? '').trim().toLowerCase();
  return main && SAFE_HOST.test(main) ? `https://${main}` : null;
}
