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

/** What a slider challenge is issued for: it passes only for that purpose and that account, once. */
export type BotBinding = { purpose: 'login' | 'sms-register'; account: string };
export type BotAnswer = { x: number; y: number };

/** A request's slider answer (its botAnswer and botAnswerY fields), or undefined when either is missing. */
export function botAnswerOf(body: { botAnswer?: number | undefined; botAnswerY?: number | undefined }): BotAnswer | undefined {
  return body.botAnswer === undefined || body.botAnswerY === undefined ? undefined : { x: body.botAnswer, y: body.botAnswerY };
}

/** The bot check behind an interface, so another provider (geetest and the like) can be plugged in. */
export type BotChecker = {
  challenge(bind: BotBinding): Promise<{ botId: string; image: string; width: number; height: number; pieceY: number }>;
  verify(botId: string | undefined, answer: BotAnswer | undefined, bind: BotBinding): Promise<boolean>;
  peek?(botId: string): Promise<BotAnswer | null>;
};

/** How far (image pixels, each way, on each axis) the piece may be let go from the hole and still pass. */
export const SLIDER_TOLERANCE = 5;
/** The hole's left edge is at least this far right, clear of the piece's start (0 to SLIDER.piece). */
export const SLIDER_MIN_X = 60;

/**
 * Self-hosted slider: drag the piece into the hole, which may be anywhere in the picture, on both
 * axes; within SLIDER_TOLERANCE px on each passes; one try per challenge. The piece starts at a
 * random row that says nothing of the hole's.
 *
 * A blind guess (one that does not look at the picture) passes with probability at most
 * (2T+1)^2 / (NX * NY), where NX = SLIDER.width - SLIDER.piece - SLIDER_MIN_X + 1 columns and
 * NY = SLIDER.height - SLIDER.piece + 1 rows are equally likely: with T = 5, 280x140 and a 40 px
 * piece, 11 * 11 / (181 * 101) = 121 / 18281 = 0.66% (the old row-only check: 9 / 156 = 5.8%).
 * A person lets go within a few pixels of the hole on a 40 px piece: T = 5 stays humane.
 */
/** Where the hole goes: every allowed column and row equally likely. */
export function drawSliderHole(): BotAnswer {
  return { x: randomInt(SLIDER_MIN_X, SLIDER.width - SLIDER.piece + 1), y: randomInt(0, SLIDER.height - SLIDER.piece + 1) };
}
/** Whether a piece let go at `answer` covers the hole well enough. */
export function sliderPasses(hole: BotAnswer, answer: BotAnswer): boolean {
  return Math.abs(hole.x - answer.x) <= SLIDER_TOLERANCE && Math.abs(hole.y - answer.y) <= SLIDER_TOLERANCE;
}

export function createSliderBotChecker(db: Queryable): BotChecker {
  return {
    async challenge(bind) {
      const { x, y } = drawSliderHole();
      const startY = randomInt(0, SLIDER.height - SLIDER.piece + 1);
      const botId = randomBytes(16).toString('base64url');
      await db.query(
        `INSERT INTO bot_challenges (id, answer, answer_y, purpose, account_lower, expires_at) VALUES ($1, $2, $3, $4, $5, now() + interval '5 minutes')`,
        [botId, x, y, bind.purpose, bind.account.toLowerCase()],
      );
      return { botId, image: `data:image/png;base64,${sliderPng(x, y)}`, width: SLIDER.width, height: SLIDER.height, pieceY: startY };
    },
    async verify(botId, answer, bind) {
      if (!botId || !answer) return false;
      // Consumed whatever the answer, and whoever presents it: one try per challenge.
      const r = await db.query<{ answer: number; answer_y: number; purpose: string; account_lower: string | null }>(
        `UPDATE bot_challenges SET used_at = now() WHERE id = $1 AND used_at IS NULL AND expires_at > now() RETURNING answer, answer_y, purpose, account_lower`,
        [botId],
      );
      const row = r.rows[0];
      return !!row && row.purpose === bind.purpose && row.account_lower === bind.account.toLowerCase()
        && sliderPasses({ x: row.answer, y: row.answer_y }, answer);
    },
    async peek(botId) {
      const r = await db.query<{ answer: number; answer_y: number }>('SELECT answer, answer_y FROM bot_challenges WHERE id = $1', [botId]);
      const row = r.rows[0];
      return row ? { x: row.answer, y: row.answer_y } : null;
    },
  };
}
