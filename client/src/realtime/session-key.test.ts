import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { endsThisSession, sessionKeyOf } from './session-key';

describe("a logout's session key", () => {
  it('is the first 16 hex digits of the SHA-256 of the token, as the gateway writes it', async () => {
    const token = 'c3-dnCJR619OuvaJF0R96G1BzNnwXFQAtwKSoQrrl-Q';
    expect(await sessionKeyOf(token)).toBe(createHash('sha256').update(token).digest('hex').slice(0, 16));
  });
  it('ends this page only when it names this session, or names none', async () => {
    const mine = 'token-of-this-browser';
    const key = (await sessionKeyOf(mine))!;
    expect(await endsThisSession(key, mine)).toBe(true);
    expect(await endsThisSession(key, 'token-of-another-browser')).toBe(false);
    expect(await endsThisSession(undefined, mine)).toBe(true); // disabled, excluded: every session
    expect(await endsThisSession(key, null)).toBe(true);
  });
});
