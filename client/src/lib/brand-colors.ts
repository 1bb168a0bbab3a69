import { brandColorsCss, type TBrandColors } from '@portal/contracts/domain/brand-colors';

/** The <style> element that carries the merchant's brand colours (one per page). */
export const BRAND_STYLE_ID = 'brand-colors';

/** What applying the colours needs of the document (the real one in the app). */
export type BrandDocument = Pick<Document, 'getElementById' | 'createElement' | 'head'>;

/**
 * Apply the merchant's brand colours as CSS variables at runtime: a <style> element at the end of
 * <head> overriding the theme variables (both themes, so a theme switch keeps them); no colours
 * removes it and the stylesheet's defaults apply again. Called on every whitelabel answer, so a
 * change an operator saves reaches open pages through system.changed without a reload.
 */
export function applyBrandColors(colors: TBrandColors | undefined, doc: BrandDocument = document): void {
  const existing = doc.getElementById(BRAND_STYLE_ID);
  if (!colors) {
    existing?.remove();
    return;
  }
  const css = brandColorsCss(colors);
  const el = existing ?? doc.createElement('style');
  if (el.textContent !== css) el.textContent = css;
  if (!existing) {
    el.id = BRAND_STYLE_ID;
    doc.head.appendChild(el);
  }
}
