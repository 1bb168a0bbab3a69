import { z } from 'zod';

/**
 * An instant a client sends (ISO 8601 with Z or an offset), between the years 2000 and 9999. Any four-digit
 * year passed: PostgreSQL took year 26 (0026 typed for 2026) and the read back failed (a 500), and years
 * 1 to 99 came back as 2001 to 1999, another date than the one entered.
 */
export const ZInstant = z.iso.datetime({ offset: true }).refine((v) => Number(v.slice(0, 4)) >= 2000, 'A date from the year 2000 on');
