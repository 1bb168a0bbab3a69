import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';

describe('the red envelope history on a phone', () => {
  it("a long message does not widen the member centre's card past the screen (its amount was cut off at 390 px)", () => {
    const css = readFileSync(new URL('./envelopes.css', import.meta.url), 'utf8');
    // the title is one line with an ellipsis; the body gives no intrinsic width to the grid it sits in
    expect(css).toMatch(/\.rp-history__title \{[^}]*white-space: nowrap[^}]*\}/);
    expect(css).toMatch(/\.rp-history__body \{[^}]*min-width: 0;[^}]*contain: inline-size;[^}]*\}/);
    expect(css).toMatch(/\.rp-history__amount \{[^}]*white-space: nowrap/);
  });
});
