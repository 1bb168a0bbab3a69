import { z } from 'zod';

/**
 * A row id in a body, a query or a path: a positive integer, sent as a number or as decimal digits.
 * Not `z.coerce.number()` alone, which took `true` for 1 and `[2]` for 2 (a mission was claimed with
 * `"missionId": true`).
 */
export const ZIdInput = z
  .union([z.number(), z.string().regex(/^\d{1,16}$/, 'a positive integer').transform(Number)])
  .pipe(z.number().int().positive().max(Number.MAX_SAFE_INTEGER));
