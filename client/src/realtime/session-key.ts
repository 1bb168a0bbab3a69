/**
 * A session's key as `system.logout` names it (contracts ZForcedLogout): the first 16 hex digits of the
 * SHA-256 of its token. Null where the page cannot hash (no Web Crypto outside a secure context).
 */
export async function sessionKeyOf(token: string): Promise<string | null> {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) return null;
  const digest = new Uint8Array(await subtle.digest('SHA-256', new TextEncoder().encode(token)));
  return [...digest.slice(0, 8)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * Whether a `system.logout` ends this page's session: one that names no session ends all of them; one that
 * names a session ends only that one (a logout in another browser leaves this one signed in). A page that
 * cannot tell (no token, no hashing) takes it as its own.
 */
export async function endsThisSession(named: string | undefined, token: string | null): Promise<boolean> {
  if (!named || !token) return true;
  const mine = await sessionKeyOf(token);
  return mine === null || mine === named;
}
