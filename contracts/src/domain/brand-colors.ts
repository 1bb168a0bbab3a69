import { z } from 'zod';
import { HEX_COLOR, brandColorProblems } from './brand-colors-core.ts';

export * from './brand-colors-core.ts';

/** The zod schemas of the brand colours (the plain helpers are in brand-colors-core.ts, kept free of zod for the client's first load). */

/** Colours per theme, each theme's primary and accent written with `hex`. */
const themeColors = (hex: z.ZodString) => {
  const pair = z.object({ primary: hex, accent: hex }).strict();
  return z.object({ dark: pair, light: pair }).strict();
};

/** The colours as stored (read back trimmed and in lower case) and as the console shows them. */
export const ZBrandColors = themeColors(z.string().trim().toLowerCase().regex(HEX_COLOR, 'a colour written #rrggbb'));

/**
 * The colours as the whitelabel call serves them: the server reads them through ZBrandColors, so they
 * are already trimmed and in lower case, and this schema only checks them. A schema that returns a valid
 * answer unchanged lets the client's production build use the answer without loading zod
 * (client/build/light-contracts.ts): every visit reads the whitelabel before its first paint.
 */
export const ZBrandColorsServed = themeColors(z.string().regex(HEX_COLOR, 'a colour written #rrggbb'));

/** The colours an operator sets: well-formed and readable on both themes (else 400 with each problem). */
export const ZBrandColorsInput = ZBrandColors.superRefine((c, ctx) => {
  for (const p of brandColorProblems(c)) ctx.addIssue({ code: 'custom', path: p.path.split('.').slice(1), message: p.message });
});
