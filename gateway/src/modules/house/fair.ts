import { createHash, createHmac, randomBytes } from 'node:crypto';

/**
 * Provably fair rounds. Before play the player sees SHA-256(serverSeed); each round's outcome is
 * HMAC-SHA256(serverSeed, `${clientSeed}:${nonce}`); rotating the seed reveals the old one, so the
 * player can recompute every round played with it and check the hash.
 */
export function newServerSeed(): string {
  return randomBytes(32).toString('hex');
}

export function hashSeed(serverSeed: string): string {
  return createHash('sha256').update(serverSeed).digest('hex');
}

export function roundDigest(serverSeed: string, clientSeed: string, nonce: number): Buffer {
  return createHmac('sha256', serverSeed).update(`${clientSeed}:${nonce}`).digest();
}

/**
 * An endless stream of uniform integers drawn from the round's digest: 32-bit words of
 * HMAC(serverSeed, `${clientSeed}:${nonce}:${block}`) for block > 0 after the first digest runs out.
 * `int(n)` is floor(u32 * n / 2^32): its bias is below n / 2^32 (under 1e-7 for the sizes used here).
 */
export function fairStream(serverSeed: string, clientSeed: string, nonce: number) {
  let buf = roundDigest(serverSeed, clientSeed, nonce);
  let pos = 0;
  let block = 0;
  const u32 = () => {
    if (pos + 4 > buf.length) {
      block += 1;
      buf = createHmac('sha256', serverSeed).update(`${clientSeed}:${nonce}:${block}`).digest();
      pos = 0;
    }
    const v = buf.readUInt32BE(pos);
    pos += 4;
    return v;
  };
  return { u32, int: (n: number) => Math.floor((u32() / 0x1_0000_0000) * n) };
}
export type FairStream = ReturnType<typeof fairStream>;

/** A revealed seed matches the hash the player was shown before play. */
export function verifySeed(serverSeed: string, shownHash: string): boolean {
  return hashSeed(serverSeed) === shownHash.toLowerCase();
}
