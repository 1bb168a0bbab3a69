import { z } from 'zod';

/**
 * An instant a client sends (ISO 8601 with Z or an offset), between the years 2000 and 9999. Any four-digit
 * year passed: PostgreSQL took year 26 (0026 typed for 2026) and the read back failed (a 500), and years
 * 1 to 99 came back as 2001 to 1999, another date than the one entered.
 */
export const ZInstant = z.iso.datetime({ offset: true }).refine((v) => Number(v.slice(0, 4)) >= 2000, 'A date from the year 2000 on');

/** The first day a client may ask about: the same floor as ZInstant's. */
export const FIRST_DAY = '2000-01-01';

const isRealDay = (v: string) => {
  const t = Date.parse(`${v}T00:00:00Z`);
  return !Number.isNaN(t) && new Date(t).toISOString().slice(0, 10) === v;
};

/**
 * A calendar day a client sends (yyyy-MM-dd; reports' and records' from and to), a real one, from the year
 * 2000 on. Days of the years 0 and 1 passed the pattern: with the merchant's offset taken off, the period
 * started before year 1 and PostgreSQL refused it (a 500 on the agent reports and the betting record).
 */
export const ZDay = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'yyyy-MM-dd')
  .refine(isRealDay, 'A real calendar day')
  .refine((v) => v >= FIRST_DAY, 'A date from the year 2000 on');

/** A day (yyyy-MM-dd, a whole day on the merchant's calendar) or an ISO date-time, from the year 2000 on (the records' from and to). */
export const ZDayOrTime = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}([T ][0-9:.]+(Z|[+-]\d{2}:?\d{2})?)?$/)
  .refine((v) => isRealDay(v.slice(0, 10)), 'A real calendar day')
  .refine((v) => v.slice(0, 10) >= FIRST_DAY, 'A date from the year 2000 on');
