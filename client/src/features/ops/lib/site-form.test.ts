import { describe, expect, it } from 'vitest';
import { badCidrs, badRegions, isCidr, parseList } from './site-form';

describe('site settings form', () => {
  it('splits lists on lines and commas, drops blanks and duplicates', () => {
    expect(parseList(' 10.0.0.0/8\n\n1.2.3.4, 1.2.3.4 ,::1')).toEqual(['10.0.0.0/8', '1.2.3.4', '::1']);
  });
  it('accepts addresses and subnets, refuses the rest', () => {
    expect(['1.2.3.4', '10.0.0.0/8', '::1', '2001:db8::/32'].every(isCidr)).toBe(true);
    expect(badCidrs(['300.1.1.1', '10.0.0.0/33', 'host.example', '1.2.3.4/8/1', '1.2.3.4'])).toEqual(['300.1.1.1', '10.0.0.0/33', 'host.example', '1.2.3.4/8/1']);
    expect(badRegions(['PH', 'us', 'PHL', '1A'])).toEqual(['PHL', '1A']);
  });
});
