import { describe, expect, it } from 'vitest';
import { brandColorProblems, contrastRatio, inkOn, ZBrandColorsInput } from './brand-colors.ts';

describe('brand colour contrast (WCAG 2.1)', () => {
  it('computes the ratios of the standard', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#ffffff', '#ffffff')).toBe(1);
    expect(contrastRatio('#777777', '#ffffff')).toBeCloseTo(4.48, 2);
    expect(inkOn('#f5c451')).toBe('#000000');
    expect(inkOn('#1f4fae')).toBe('#ffffff');
  });

  it('refuses colours too faint for their role on their theme, and malformed ones', () => {
    const ok = { dark: { primary: '#f5c451', accent: '#e9a426' }, light: { primary: '#8a5a00', accent: '#b06f00' } };
    expect(brandColorProblems(ok)).toEqual([]);
    expect(ZBrandColorsInput.safeParse({ ...ok, dark: { primary: '#F5C451', accent: '#E9A426' } }).data?.dark.primary).toBe('#f5c451');
    // #2d6cdf: 4.45:1 on the light background, enough for an accent (3:1), not for the primary (4.5:1)
    expect(brandColorProblems({ ...ok, light: { primary: '#2d6cdf', accent: '#2d6cdf' } }).map((p) => p.path)).toEqual(['colors.light.primary']);
    const bad = ZBrandColorsInput.safeParse({ dark: { primary: '#0a0a0a', accent: '#e9a426' }, light: ok.light });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues.map((i) => i.path.join('.'))).toEqual(['dark.primary']);
    for (const v of ['#fff', 'f5c451', '#f5c45g', 'red']) expect(ZBrandColorsInput.safeParse({ ...ok, dark: { ...ok.dark, primary: v } }).success, v).toBe(false);
  });
});
