import { parse as parseCookies } from 'cookie';
import type { Request, Response } from 'express';

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{20,128}$/;

/**
 * A credential kept across page reloads without browser storage. The token stays a Bearer
 * credential held in the page's memory; to get it back after a reload, the gateway keeps it in an
 * HttpOnly, SameSite=Strict cookie whose path is only the call that reads it back, so scripts cannot
 * read it, no other call ever receives it (it is never an ambient credential, so no cross-site
 * request can use it), and it goes when the browser session ends. Secure when the request came over
 * HTTPS (directly or through a trusted proxy).
 */
export function tokenCookie(name: string, path: string) {
  const base = (req: Request) => ({ httpOnly: true, sameSite: 'strict' as const, path, secure: req.secure });
  /** This cookie's value as the request carries it (undefined when it carries none). */
  const raw = (req: Request): string | undefined => parseCookies(req.headers.cookie ?? '')[name];
  const wellFormed = (v: string | undefined): string | null => (v && TOKEN_SHAPE.test(v) ? v : null);
  /** The kept token, if the request carries a well-formed one. */
  const read = (req: Request): string | null => wellFormed(raw(req));
  const clear = (req: Request, res: Response) => {
    res.clearCookie(name, base(req));
  };
  return {
    read,
    clear,
    keep(req: Request, res: Response, token: string) {
      res.cookie(name, token, base(req));
    },
    /**
     * The answer of a restore call: the kept token while `resolve` finds its session live for this
     * merchant; otherwise null, and this cookie, if the request carried it, is cleared. A request
     * without it clears nothing: other cookies of the host (another service on the same host, an
     * identity provider on another port) are not ours, and a restore that raced a keep must not
     * undo the keep when its answer arrives second.
     */
    async restore(req: Request, res: Response, merchantCode: string, resolve: (token: string) => Promise<{ merchantCode: string } | null>) {
      const sent = raw(req);
      const token = wellFormed(sent);
      const session = token ? await resolve(token) : null;
      if (token && session?.merchantCode === merchantCode) return { token };
      if (sent !== undefined) clear(req, res);
      return { token: null };
    },
  };
}
