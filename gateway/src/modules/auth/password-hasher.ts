import { hash, verify, type Algorithm } from '@node-rs/argon2';

/** Algorithm.Argon2id (a const enum, which isolated modules cannot read). */
const ARGON2ID = 2 as Algorithm;
import { AppError, ErrorCode } from '../../app/errors.ts';

/**
 * argon2id behind a concurrency cap: at most `concurrency` hashes run at once and at most
 * `maxQueue` wait, so a login flood gets 429s instead of starving every other call of CPU.
 */
export function createPasswordHasher(opts: { concurrency?: number; maxQueue?: number; memoryCost?: number; timeCost?: number } = {}) {
  const concurrency = opts.concurrency ?? 2;
  const maxQueue = opts.maxQueue ?? 64;
  const params = { algorithm: ARGON2ID, memoryCost: opts.memoryCost ?? 19_456, timeCost: opts.timeCost ?? 2, parallelism: 1 };
  let running = 0;
  const waiting: Array<() => void> = [];

  async function slot<T>(fn: () => Promise<T>): Promise<T> {
    if (running >= concurrency) {
      if (waiting.length >= maxQueue) throw new AppError(ErrorCode.TOO_MANY_REQUESTS, 'Server busy, please try again');
      await new Promise<void>((resolve) => waiting.push(resolve));
    } else {
      running++;
    }
    try {
      return await fn();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else running--;
    }
  }

  return {
    hash: (password: string) => slot(() => hash(password, params)),
    verify: (stored: string, password: string) => slot(() => verify(stored, password).catch(() => false)),
    stats: () => ({ running, waiting: waiting.length }),
  };
}
export type PasswordHasher = ReturnType<typeof createPasswordHasher>;

/** A real argon2id hash of nothing anyone knows, verified when an account does not exist so timing tells nothing. */
export const DUMMY_HASH = '$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0c2FsdA$3oyjXzbWfqV8wq7ml3g4uBpa8C4zM0xh5jr2+7W2j+Q';
