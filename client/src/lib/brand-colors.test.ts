import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BRAND_COLOR_VARS, brandColorProblems, contrastRatio, THEME_BACKGROUNDS, type TBrandColors } from '@portal/contracts/domain/brand-colors';
import { applyBrandColors, type BrandStyleTarget } from './brand-colors';

const STYLES = readFileSync(new URL('../app/styles.css', import.meta.url), 'utf8');
const COLORS: TBrandColors = { dark: { primary: '#5aa0ff', accent: '#2d6cdf' }, light: { primary: '#1f4fae', accent: '#2d6cdf' } };

/** The custom properties of the first rule whose selector list starts with `selector`. */
function rule(css: string, selector: string): Record<string, string> {
  const at = css.indexOf(selector);
  expect(at, selector).toBeGreaterThanOrEqual(0);
  const body = css.slice(css.indexOf('{', at) + 1, css.indexOf('}', at));
  return Object.fromEntries(body.split(';').map((d) => d.trim()).filter((d) => d.startsWith('--')).map((d) => [d.slice(0, d.indexOf(':')).trim(), d.slice(d.indexOf(':') + 1).trim()]));
}

/** An inline style that keeps its properties (no DOM in unit tests; the e2e checks the real page). */
function inlineStyle() {
  const props = new Map<string, string>();
  const target: BrandStyleTarget = { setProperty: (k: string, v: string | null) => { props.set(k, v ?? ''); }, removeProperty: (k: string) => { const v = props.get(k) ?? ''; props.delete(k); return v; } };
  return { target, props };
}

describe('brand colours in the client', () => {
  it('the contrast check uses the backgrounds the stylesheet really paints', () => {
    expect(rule(STYLES, "[data-theme='dark'] {")['--bg']).toBe(THEME_BACKGROUNDS.dark);
    expect(rule(STYLES, "[data-theme='light'] {")['--bg']).toBe(THEME_BACKGROUNDS.light);
    expect(brandColorProblems(COLORS)).toEqual([]);
  });

  it('the default theme colours read on every surface of their theme, and pass the check an operator\'s colours must pass', () => {
    const dark = rule(STYLES, "[data-theme='dark'] {");
    const light = rule(STYLES, "[data-theme='light'] {");
    const low: string[] = [];
    for (const [name, vars] of [['dark', dark], ['light', light]] as const) {
      // text colours against every surface they are painted on (WCAG 1.4.3: 4.5:1 for normal text)
      for (const text of ['--text', '--text-muted', '--accent', '--success', '--danger', '--warn']) {
        for (const surface of ['--bg', '--surface', '--surface-2', '--surface-3']) {
          const ratio = contrastRatio(vars[text]!, vars[surface]!);
          if (ratio < 4.5) low.push(`${name} ${text} ${vars[text]} on ${surface} ${vars[surface]}: ${ratio.toFixed(2)}:1`);
        }
      }
      // the ink of filled primary buttons and active tabs
      const ink = contrastRatio(vars['--accent-ink']!, vars['--accent']!);
      if (ink < 4.5) low.push(`${name} --accent-ink on --accent: ${ink.toFixed(2)}:1`);
      // white counts on the unread badges
      const badge = contrastRatio('#ffffff', vars['--badge-bg']!);
      if (!(badge >= 4.5)) low.push(`${name} white on --badge-bg ${vars['--badge-bg']}: ${badge.toFixed(2)}:1`);
    }
    expect(low).toEqual([]);
    expect(brandColorProblems({ dark: { primary: dark['--accent']!, accent: dark['--accent-2']! }, light: { primary: light['--accent']!, accent: light['--accent-2']! } })).toEqual([]);
  });

  it('sets the theme variables the stylesheet defines for the current theme, and removes them again', () => {
    const { target, props } = inlineStyle();
    applyBrandColors(COLORS, 'dark', target);
    expect(Object.fromEntries(props)).toEqual({ '--accent': '#5aa0ff', '--accent-2': '#2d6cdf', '--accent-ink': '#000000', '--accent-soft': 'rgba(90, 160, 255, 0.12)' });
    applyBrandColors(COLORS, 'light', target);
    expect(Object.fromEntries(props)).toMatchObject({ '--accent': '#1f4fae', '--accent-ink': '#ffffff' });
    // every variable set is one both theme rules of the stylesheet define (a typo would change nothing)
    for (const theme of ["[data-theme='dark'] {", "[data-theme='light'] {"]) {
      const defined = Object.keys(rule(STYLES, theme));
      for (const v of BRAND_COLOR_VARS) expect(defined, `${theme} ${v}`).toContain(v);
    }
    applyBrandColors(undefined, 'light', target);
    expect(props.size).toBe(0);
  });
});
