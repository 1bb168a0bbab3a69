/**
 * A merchant's brand colours (issue 13; no zod here, so the client's first load can apply them: the schemas are in brand-colors.ts): a primary and an accent colour for each theme, #rrggbb.
 * In the client `primary` is `--accent` (links, focus rings, outline buttons, highlighted text) and
 * `accent` is `--accent-2` (gradients and the primary button's lower edge).
 */
export const BRAND_THEMES = ['dark', 'light'] as const;
export type BrandTheme = (typeof BRAND_THEMES)[number];

/** The page backgrounds of the two themes (client/src/app/styles.css `--bg`; a test keeps them equal). */
export const THEME_BACKGROUNDS: Record<BrandTheme, string> = { dark: '#070b18', light: '#f3f5f9' };

/**
 * Least contrast against the theme background (WCAG 2.1 ratios): the primary colour is used for
 * text, so 4.5:1 (1.4.3, normal text); the accent colour only for non-text shapes, so 3:1 (1.4.11).
 */
export const BRAND_MIN_CONTRAST = { primary: 4.5, accent: 3 } as const;

export const HEX_COLOR = /^#[0-9a-f]{6}$/;

/** WCAG relative luminance of a #rrggbb colour. */
export function relativeLuminance(hex: string): number {
  const c = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255).map((v) => (v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
  return 0.2126 * c[0]! + 0.7152 * c[1]! + 0.0722 * c[2]!;
}

/** WCAG contrast ratio of two #rrggbb colours (1 to 21). */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** Text on a filled primary colour: black or white, whichever reads better. */
export function inkOn(hex: string): '#000000' | '#ffffff' {
  return contrastRatio(hex, '#000000') >= contrastRatio(hex, '#ffffff') ? '#000000' : '#ffffff';
}

/** The colours as stored and served (whitelabel brand.colors); ZBrandColors in brand-colors.ts checks this shape. */
export type TBrandColors = Record<BrandTheme, { primary: string; accent: string }>;

/** Each colour that reads too poorly on its theme's background, with its ratio and the one needed. */
export function brandColorProblems(c: TBrandColors): Array<{ path: string; message: string }> {
  const out: Array<{ path: string; message: string }> = [];
  for (const theme of BRAND_THEMES) {
    for (const role of ['primary', 'accent'] as const) {
      const ratio = contrastRatio(c[theme][role], THEME_BACKGROUNDS[theme]);
      const need = BRAND_MIN_CONTRAST[role];
      if (ratio < need) out.push({ path: `colors.${theme}.${role}`, message: `contrast ${ratio.toFixed(2)}:1 against the ${theme} background ${THEME_BACKGROUNDS[theme]}; at least ${need}:1 is needed` });
    }
  }
  return out;
}

/** The theme variables the colours drive on one theme (set at runtime on <html>, see the client's lib/brand-colors). */
export const BRAND_COLOR_VARS = ['--accent', '--accent-2', '--accent-ink', '--accent-soft'] as const;
export function brandColorVars(c: TBrandColors, theme: BrandTheme): Record<(typeof BRAND_COLOR_VARS)[number], string> {
  const p = c[theme];
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(p.primary.slice(i, i + 2), 16));
  return { '--accent': p.primary, '--accent-2': p.accent, '--accent-ink': inkOn(p.primary), '--accent-soft': `rgba(${r}, ${g}, ${b}, 0.12)` };
}
