import { z } from 'zod';
import { ZEventEnvelope } from '../events/events.ts';
import { ZWinner } from './games.ts';

/** Outside production only. */
export const ZDevOutboxQuery = z.object({ to: z.string().min(1).max(128) }).strict();

/** Replay: recorded envelopes are re-sequenced into the outbox, optionally re-targeted at one user. */
export const ZReplayBody = z
  .object({
    events: z.array(ZEventEnvelope).min(1).max(1000),
    /** Re-target every `user:*` event at this member. */
    userId: z.number().int().positive().optional(),
  })
  .strict();

/** Post a winner (a business row and its `winner.posted` event in one transaction). */
/** `iconUrl` may be left out (or null): the catalogue's icon for the game named, as a real post does. */
export const ZDevWinnerBody = ZWinner.omit({ id: true, at: true }).extend({ iconUrl: ZWinner.shape.iconUrl.optional() }).strict();
