import { BRAND_COLOR_VARS, brandColorVars, type BrandTheme, type TBrandColors } from '@portal/contracts/domain/brand-colors-core';

/** Where the variables go: the <html> element's style (CSSOM, which the strict CSP allows; a <style> element it refuses). */
export type BrandStyleTarget = Pick<CSSStyleDeclaration, 'setProperty' | 'removeProperty'>;

/**
 * Apply the merchant's brand colours for the current theme as CSS variables on <html> (inline,
 * so they win over the stylesheet's theme rules); no colours removes them and the stylesheet's
 * defaults apply again. Called on every whitelabel answer and theme change, so a colour an operator
 * saves reaches open pages through system.changed without a reload.
 */
export function applyBrandColors(colors: TBrandColors | undefined, theme: BrandTheme, target: BrandStyleTarget = document.documentElement.style): void {
  if (!colors) {
    for (const v of BRAND_COLOR_VARS) target.removeProperty(v);
    return;
  }
  for (const [k, v] of Object.entries(brandColorVars(colors, theme))) target.setProperty(k, v);
}
