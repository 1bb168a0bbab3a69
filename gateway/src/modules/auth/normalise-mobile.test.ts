import { describe, expect, it } from 'vitest';
import { normaliseMobile } from './sms-codes.ts';

describe('normaliseMobile', () => {
  it('reads local, national and full writings under the given dialing code', () => {
    for (const w of ['09171234567', '9171234567', '+639171234567', '+63 917 123 4567', '(0917) 123-4567']) {
      expect(normaliseMobile('63', w), w).toEqual({ dialing: '63', mobile: '9171234567' });
    }
  });

  it("takes a full writing's own country code (+84 under the form's +63 was the +63 number 84917...)", () => {
    expect(normaliseMobile('63', '+849171234567')).toEqual({ dialing: '84', mobile: '9171234567' });
    expect(normaliseMobile('+84', '+639171234567')).toEqual({ dialing: '63', mobile: '9171234567' });
    // a country the site does not serve is refused, written in full or as the form's code
    expect(() => normaliseMobile('63', '+8821234567')).toThrow();
    expect(() => normaliseMobile('882', '1234567')).toThrow();
  });
});
