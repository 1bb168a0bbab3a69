import { AppError, ErrorCode } from '../../app/errors.ts';
import type { PasswordHasher } from './password-hasher.ts';
import type { RateLimiter } from './rate-limit.ts';

/** Wrong passwords a member may give in the window (security centre, withdrawals, transfers, redeems) before they lock. */
export const PASSWORD_FAILURES = 5;
export const PASSWORD_WINDOW_MS = 15 * 60_000;

/**
 * Two budgets per signed-in member.
 *
 * Wrong passwords (`prove`): every check a member's password goes through while signed in: the
 * transaction password (withdrawals, bank accounts, transfers, redeems, its change) and the login
 * password asked again (its change, binding a mobile number or an e-mail, the first transaction
 * password). Five misses in 15 minutes lock them all (429 WITHDRAW_PASSWORD_LOCKED). Only wrong passwords
 * count.
 *
 * Comparisons (`matches`): "the login password may not be the transaction password" answered a new login
 * password equal to the transaction password with PASSWORDS_MUST_DIFFER, so changing the login password
 * over and over guessed the transaction password without limit (and changing the transaction password
 * guessed the login password). Each comparison is a guess of the other secret: five in 15 minutes are
 * judged, then password changes wait (429 PASSWORD_CHANGES_LOCKED). It is a budget of its own: a member
 * who changes a password correctly spends nothing of the wrong-password one, and withdrawals never wait
 * on it. (Resets by link or code do not use it: a refused comparison spends their link or code.)
 *
 * Guesses sent at once are judged side by side and decided in the order their misses were recorded
 * (`RateLimiter.miss`): a miss past the fifth is answered as locked, and a right password judged while
 * the fifth was recorded is not taken.
 */
export function createPasswordGuard(deps: { limiter: RateLimiter; hasher: PasswordHasher }) {
  const { limiter, hasher } = deps;
  const keyOf = (memberId: number) => `wdpw:${memberId}`;
  const compareKeyOf = (memberId: number) => `pwcmp:${memberId}`;
  const isSpent = async (key: string) => (await limiter.count(key, PASSWORD_WINDOW_MS)) >= PASSWORD_FAILURES;
  const locked = () => new AppError(ErrorCode.WITHDRAW_PASSWORD_LOCKED);
  const comparing = () => new AppError(ErrorCode.PASSWORD_CHANGES_LOCKED);

  return {
    /** The member proves a password it must know (its hash `hash`): `wrong` when it is not, locked past the budget. */
    async prove(memberId: number, hash: string | null, candidate: string, wrong: ErrorCode): Promise<void> {
      const r = await limiter.judge(keyOf(memberId), PASSWORD_FAILURES, PASSWORD_WINDOW_MS, async () => !!hash && candidate !== '' && (await hasher.verify(hash, candidate)));
      if (r === 'locked') throw locked();
      if (r === 'wrong') throw new AppError(wrong);
    },
    /**
     * Whether `candidate` is the member's other secret (`hash`, not proven in this request). No secret:
     * false, nothing counted.
     */
    async matches(memberId: number, hash: string | null, candidate: string): Promise<boolean> {
      if (!hash) return false;
      const key = compareKeyOf(memberId);
      if (await isSpent(key)) throw comparing();
      const same = await hasher.verify(hash, candidate);
      // Every comparison is a guess, the right one too (it is the one an attacker looks for).
      if (!(await limiter.miss(key, PASSWORD_FAILURES, PASSWORD_WINDOW_MS))) throw comparing();
      return same;
    },
  };
}
export type PasswordGuard = ReturnType<typeof createPasswordGuard>;
