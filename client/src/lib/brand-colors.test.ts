import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { brandColorProblems, THEME_BACKGROUNDS, type TBrandColors } from '@portal/contracts/domain/brand-colors';
import { applyBrandColors, BRAND_STYLE_ID, type BrandDocument } from './brand-colors';

const STYLES = readFileSync(new URL('../app/styles.css', import.meta.url), 'utf8');
const COLORS: TBrandColors = { dark: { primary: '#5aa0ff', accent: '#2d6cdf' }, light: { primary: '#1f4fae', accent: '#2d6cdf' } };

/** The declarations of the first rule whose selector list starts with `selector`. */
function rule(css: string, selector: string): Record<string, string> {
  const at = css.indexOf(selector);
  expect(at, selector).toBeGreaterThanOrEqual(0);
  const body = css.slice(css.indexOf('{', at) + 1, css.indexOf('}', at));
  return Object.fromEntries(body.split(';').map((d) => d.trim()).filter((d) => d.startsWith('--')).map((d) => [d.slice(0, d.indexOf(':')).trim(), d.slice(d.indexOf(':') + 1).trim()]));
}

/** A head that keeps its children, enough of a document for applyBrandColors (no DOM in unit tests). */
function page() {
  const els: Array<{ id: string; textContent: string | null; remove(): void }> = [];
  const doc = {
    head: { appendChild: (el: (typeof els)[number]) => { els.push(el); return el; } },
    getElementById: (id: string) => els.find((e) => e.id === id) ?? null,
    createElement: () => { const el = { id: '', textContent: null as string | null, remove: () => { els.splice(els.indexOf(el), 1); } }; return el; },
  } as unknown as BrandDocument;
  return { doc, els };
}

describe('brand colours in the client', () => {
  it('the contrast check uses the backgrounds the stylesheet really paints', () => {
    expect(rule(STYLES, "[data-theme='dark'] {")['--bg']).toBe(THEME_BACKGROUNDS.dark);
    expect(rule(STYLES, "[data-theme='light'] {")['--bg']).toBe(THEME_BACKGROUNDS.light);
    expect(brandColorProblems(COLORS)).toEqual([]);
  });

  it('applies the colours as CSS variables of both themes, overriding variables the stylesheet defines, and removes them again', () => {
    const { doc, els } = page();
    applyBrandColors(COLORS, doc);
    expect(els).toHaveLength(1);
    expect(els[0]!.id).toBe(BRAND_STYLE_ID);
    const css = els[0]!.textContent!;
    const dark = rule(css, "html:root, html[data-theme='dark']");
    const light = rule(css, "html[data-theme='light']");
    expect(dark).toMatchObject({ '--accent': '#5aa0ff', '--accent-2': '#2d6cdf', '--accent-ink': '#000000' });
    expect(light).toMatchObject({ '--accent': '#1f4fae', '--accent-2': '#2d6cdf', '--accent-ink': '#ffffff' });
    // every variable set is one the theme rules of the stylesheet define (a typo would change nothing)
    const themeVars = Object.keys(rule(STYLES, "[data-theme='light'] {"));
    for (const v of [...Object.keys(dark), ...Object.keys(light)]) expect(themeVars, v).toContain(v);
    // a new answer updates the same element; no colours removes it
    applyBrandColors({ ...COLORS, light: { primary: '#8a5a00', accent: '#b06f00' } }, doc);
    expect(els).toHaveLength(1);
    expect(rule(els[0]!.textContent!, "html[data-theme='light']")['--accent']).toBe('#8a5a00');
    applyBrandColors(undefined, doc);
    expect(els).toHaveLength(0);
  });
});
