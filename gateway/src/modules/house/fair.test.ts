import { describe, expect, it } from 'vitest';
import { createHmac } from 'node:crypto';
import { fairStream, hashSeed, newServerSeed, roundDigest, verifySeed } from './fair.ts';
import { evaluate, stopsFrom } from './slot.ts';

describe('provably fair rounds', () => {
  it('the shown hash is SHA-256 of the seed, and only that seed verifies', () => {
    const seed = newServerSeed();
    expect(seed).toMatch(/^[0-9a-f]{64}$/);
    const hash = hashSeed(seed);
    expect(verifySeed(seed, hash)).toBe(true);
    expect(verifySeed(newServerSeed(), hash)).toBe(false);
  });

  it('an outcome is HMAC-SHA256(serverSeed, clientSeed:nonce), recomputable by anyone', () => {
    const seed = 'a'.repeat(64);
    expect(roundDigest(seed, 'lucky', 7).toString('hex')).toBe(createHmac('sha256', seed).update('lucky:7').digest('hex'));
    const a = evaluate(stopsFrom(fairStream(seed, 'lucky', 7)));
    const b = evaluate(stopsFrom(fairStream(seed, 'lucky', 7)));
    expect(a).toEqual(b);
    // The first reel stop comes from the first 32-bit word of the digest.
    const word = roundDigest(seed, 'lucky', 7).readUInt32BE(0);
    expect(a.stops[0]).toBe(Math.floor((word / 2 ** 32) * 24));
  });

  it('a different nonce or client seed gives a different stream', () => {
    const seed = newServerSeed();
    const draw = (c: string, n: number) => Array.from({ length: 8 }, () => 0).map(((s) => () => s.u32())(fairStream(seed, c, n)));
    expect(draw('x', 1)).not.toEqual(draw('x', 2));
    expect(draw('x', 1)).not.toEqual(draw('y', 1));
    // Past the first digest the stream keeps going.
    expect(new Set(draw('x', 1).concat(draw('x', 1))).size).toBeGreaterThan(1);
  });
});
