import { createHash, randomBytes, randomInt } from 'node:crypto';
import type { Queryable } from '../../db/db.ts';
import { AppError, ErrorCode } from '../../app/errors.ts';
import { SLIDER, captchaPng, sliderPng } from './images.ts';

const sha = (s: string) => createHash('sha256').update(s).digest();

/** Image captcha: 4 digits, 5 minutes, single use. */
export function createCaptchas(db: Queryable) {
  return {
    async create(): Promise<{ captchaKey: string; image: string }> {
      const answer = String(randomInt(0, 10_000)).padStart(4, '0');
      const captchaKey = randomBytes(16).toString('base64url');
      await db.query(`INSERT INTO captchas (key, answer_hash, expires_at) VALUES ($1, $2, now() + interval '5 minutes')`, [captchaKey, sha(`${captchaKey}:${answer}`)]);
      return { captchaKey, image: `data:image/png;base64,${captchaPng(answer)}` };
    },
    /** Consumes the captcha whatever the answer: one guess per image. */
    async check(key: string | undefined, answer: string | undefined): Promise<void> {
      if (!key || !answer) throw new AppError(ErrorCode.CAPTCHA_REQUIRED, undefined, undefined, { captcha: true });
      const r = await db.query<{ answer_hash: Buffer }>(
        `UPDATE captchas SET used_at = now() WHERE key = $1 AND used_at IS NULL AND expires_at > now() RETURNING answer_hash`,
        [key],
      );
      const row = r.rows[0];
      if (!row || !Buffer.from(row.answer_hash).equals(sha(`${key}:${answer.trim()}`))) {
        throw new AppError(ErrorCode.CAPTCHA_INVALID, undefined, undefined, { captcha: true });
      }
    },
    /** Outside production only: the answer, for QA and tests. */
    async peek(key: string): Promise<string | null> {
      const r = await db.query<{ answer_hash: Buffer }>('SELECT answer_hash FROM captchas WHERE key = $1', [key]);
      const row = r.rows[0];
      if (!row) return null;
      for (let i = 0; i < 10_000; i++) {
        const a = String(i).padStart(4, '0');
        if (Buffer.from(row.answer_hash).equals(sha(`${key}:${a}`))) return a;
      }
      return null;
    },
  };
}
export type Captchas = ReturnType<typeof createCaptchas>;

/** The bot check behind an interface, so another provider (geetest and the like) can be plugged in. */
export type BotChecker = {
  challenge(): Promise<{ botId: string; image: string; width: number; pieceY: number }>;
  verify(botId: string | undefined, answer: number | undefined): Promise<boolean>;
  peek?(botId: string): Promise<number | null>;
};

/** Self-hosted slider: drag the piece into the hole; within 4 px passes; one try per challenge. */
export function createSliderBotChecker(db: Queryable): BotChecker {
  return {
    async challenge() {
      const x = randomInt(80, SLIDER.width - SLIDER.piece - 4);
      const y = randomInt(10, SLIDER.height - SLIDER.piece - 10);
      const botId = randomBytes(16).toString('base64url');
      await db.query(`INSERT INTO bot_challenges (id, answer, expires_at) VALUES ($1, $2, now() + interval '5 minutes')`, [botId, x]);
      return { botId, image: `data:image/png;base64,${sliderPng(x, y)}`, width: SLIDER.width, pieceY: y };
    },
    async verify(botId, answer) {
      if (!botId || answer === undefined) return false;
      const r = await db.query<{ answer: number }>(
        `UPDATE bot_challenges SET used_at = now() WHERE id = $1 AND used_at IS NULL AND expires_at > now() RETURNING answer`,
        [botId],
      );
      const row = r.rows[0];
      return !!row && Math.abs(row.answer - answer) <= 4;
    },
    async peek(botId) {
      const r = await db.query<{ answer: number }>('SELECT answer FROM bot_challenges WHERE id = $1', [botId]);
      return r.rows[0]?.answer ?? null;
    },
  };
}
