import { randomBytes } from 'node:crypto';
import { api } from './test-portal.ts';

/** `call(path, init)`: api() on a test portal whose url is read at each call (the portal starts in a beforeAll). */
export function apiOn(url: () => string) {
  return <T = Record<string, unknown>>(path: string, init: Parameters<typeof api>[2] = {}) => api<T>(url(), path, init);
}

/** A member made for a test, with a live session. */
export type TestMember = { account: string; memberId: number; token: string };

/** The login password of every member made here. */
export const TEST_MEMBER_PASSWORD = 'login12345';

/**
 * `member(type, parent?)` for the API tests of a test portal: creates the member over the dev routes
 * (POST /wps/dev/members, loopback only, with TEST_MEMBER_PASSWORD, under `parent` when given) and
 * opens a session for it (POST /wps/dev/sessions). Either call failing throws with its answer.
 * `url` is read at each call (the portal starts in a beforeAll); `account` names each new account
 * (default `<prefix><10 hex digits>`).
 */
export function testMembers(url: () => string, opts: { prefix?: string; account?: () => string } = {}) {
  const nextAccount = opts.account ?? (() => `${opts.prefix ?? 'm'}${randomBytes(5).toString('hex')}`);
  return async function member(type: number, parent?: { account: string }): Promise<TestMember> {
    const account = nextAccount();
    const body = { account, password: TEST_MEMBER_PASSWORD, type, ...(parent ? { parentAccount: parent.account } : {}) };
    const created = await api<{ memberId: number }>(url(), '/wps/dev/members', { body });
    if (created.status !== 200) throw new Error(`creating member ${account}: ${created.status} ${created.text}`);
    const s = await api<{ memberId: number; token: string }>(url(), '/wps/dev/sessions', { body: { account, type } });
    if (s.status !== 200 || !s.json?.value) throw new Error(`session of ${account}: ${s.status} ${s.text}`);
    return { account, memberId: s.json.value.memberId, token: s.json.value.token };
  };
}
