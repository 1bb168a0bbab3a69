import { z } from 'zod';
import { defineCall } from './envelope.ts';
import { ZPageQuery, zPage } from './cashier.ts';
import { LIMITS } from '../domain/constants.ts';

/**
 * Feedback (spec sections 5 and 7, `/wps/feedback` PUT): a player's text of at most 140 characters
 * with up to 3 png or jpg images of at most 5 MB each, sent as multipart/form-data (text field
 * `content`, file field `images`). The server judges images by their bytes (signature, structure,
 * dimensions), never by file name or declared type. An operator (support or administrator) answers
 * in the back office; the answer reaches the player as a message (`feedback_answered`).
 *
 * The spec marks `/wps/feedback` token N; here it needs a member session: the history and the answer
 * belong to a member, and the message that carries the answer goes to one.
 */
export const FEEDBACK_LIMITS = {
  maxChars: LIMITS.FEEDBACK_MAX_CHARS,
  maxBytes: LIMITS.IMAGE_MAX_BYTES,
  maxFiles: LIMITS.IMAGE_MAX_COUNT,
  field: 'images',
  /** Feedback a member may send per hour (bounds what one account can store). */
  perHour: 10,
  answerMaxChars: 1000,
} as const;

/** Characters as a person counts them (code points), so an emoji is one, not two. */
export const charCount = (s: string) => [...s].length;

/** The text fields of the multipart body. */
export const ZFeedbackFields = z
  .object({
    content: z
      .string()
      .trim()
      .min(1)
      .refine((s) => charCount(s) <= FEEDBACK_LIMITS.maxChars, { message: `at most ${FEEDBACK_LIMITS.maxChars} characters` }),
  })
  .strict();

export const FEEDBACK_STATUSES = ['open', 'answered'] as const;
export const ZFeedbackImage = z.object({
  n: z.number().int(),
  contentType: z.enum(['image/png', 'image/jpeg']),
  width: z.number().int(),
  height: z.number().int(),
  size: z.number().int(),
});
export const ZFeedback = z.object({
  id: z.string(),
  content: z.string(),
  status: z.enum(FEEDBACK_STATUSES),
  images: z.array(ZFeedbackImage),
  answer: z.string().nullable(),
  answeredAt: z.string().nullable(),
  createdAt: z.string(),
});
export type TFeedback = z.infer<typeof ZFeedback>;

/**
 * Routes mounted by hand (multipart upload, raw image bytes), described in the OpenAPI document's
 * hand-mounted list: PUT `/wps/feedback` (fields `content`, files `images`; value ZFeedback) and GET
 * `/wps/feedback/:id/images/:n` (the member's own image).
 */
export const FEEDBACK_PATHS = { send: '/wps/feedback', image: '/wps/feedback/:id/images/:n' } as const;
export const feedbackImagePath = (id: string | number, n: number) => `/wps/feedback/${id}/images/${n}`;

export const feedbackCalls = {
  list: defineCall({ method: 'GET', path: '/wps/feedback', auth: true, query: ZPageQuery, value: zPage(ZFeedback) }),
};

// ---- back office ----

export const ZOpsFeedback = ZFeedback.extend({ memberId: z.number().int(), account: z.string(), answeredBy: z.string().nullable() });
export type TOpsFeedback = z.infer<typeof ZOpsFeedback>;
export const ZOpsFeedbackQuery = ZPageQuery.extend({ status: z.enum(FEEDBACK_STATUSES).optional() }).strict();
export const ZFeedbackAnswerBody = z
  .object({
    answer: z
      .string()
      .trim()
      .min(1)
      .refine((s) => charCount(s) <= FEEDBACK_LIMITS.answerMaxChars, { message: `at most ${FEEDBACK_LIMITS.answerMaxChars} characters` }),
  })
  .strict();
export const opsFeedbackImagePath = (id: string | number, n: number) => `/ops/api/feedback/${id}/images/${n}`;

export const opsFeedbackCalls = {
  list: defineCall({ method: 'GET', path: '/ops/api/feedback', auth: true, query: ZOpsFeedbackQuery, value: zPage(ZOpsFeedback) }),
  /** Once: a second answer is INVALID_STATE (409). */
  answer: defineCall({ method: 'POST', path: '/ops/api/feedback/:id/answer', auth: true, body: ZFeedbackAnswerBody, value: ZOpsFeedback }),
  image: defineCall({ method: 'GET', path: '/ops/api/feedback/:id/images/:n', auth: true, value: z.unknown() }),
};
