import { describe, expect, it } from 'vitest';
import { MOBILE_PATTERNS } from '@portal/contracts/domain/mobile';
import { normaliseMobile } from './sms-codes.ts';
import { COUNTRIES } from './registration-settings.ts';

describe('normaliseMobile', () => {
  it('reads local, national and full writings under the given dialing code', () => {
    for (const w of ['09171234567', '9171234567', '+639171234567', '+63 917 123 4567', '(0917) 123-4567']) {
      expect(normaliseMobile('63', w), w).toEqual({ dialing: '63', mobile: '9171234567' });
    }
  });

  it("takes a full writing's own country code (+84 under the form's +63 was the +63 number 84917...)", () => {
    expect(normaliseMobile('63', '+84912345678')).toEqual({ dialing: '84', mobile: '912345678' });
    expect(normaliseMobile('+84', '+639171234567')).toEqual({ dialing: '63', mobile: '9171234567' });
    // a country the site does not serve is refused, written in full or as the form's code
    expect(() => normaliseMobile('63', '+8821234567')).toThrow();
    expect(() => normaliseMobile('882', '1234567')).toThrow();
  });

  it("takes only a mobile number of the country: 1234567, a Manila landline or 15 digits were texted under +63", () => {
    for (const w of ['1234567', '0281234567', '123456789012345', '917123456', '91712345678', '8171234567']) {
      expect(() => normaliseMobile('63', w), w).toThrow();
    }
    expect(normaliseMobile('84', '0912345678')).toEqual({ dialing: '84', mobile: '912345678' });
    expect(() => normaliseMobile('84', '9171234567')).toThrow();
    expect(normaliseMobile('66', '0812345678')).toEqual({ dialing: '66', mobile: '812345678' });
    expect(normaliseMobile('62', '081234567890')).toEqual({ dialing: '62', mobile: '81234567890' });
    expect(normaliseMobile('60', '0123456789')).toEqual({ dialing: '60', mobile: '123456789' });
    expect(() => normaliseMobile('60', '0312345678')).toThrow();
  });

  it('serves exactly the countries the register settings offer: each has a mobile pattern, no other is texted', () => {
    expect(Object.keys(MOBILE_PATTERNS).sort()).toEqual(COUNTRIES.map((c) => c.countryDialingCode).sort());
    // a writing with blanks around the dialing code, as a form may send it
    expect(normaliseMobile(' +63 ', ' 0917 123 4567 ')).toEqual({ dialing: '63', mobile: '9171234567' });
    expect(() => normaliseMobile('+', '09171234567')).toThrow();
  });
});
