import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';

describe('the winners list on a phone', () => {
  it('is a two-line card per win, so the amount is on screen (the four columns were 513 px wide at 390 in TY)', () => {
    const css = readFileSync(new URL('./site-pages.css', import.meta.url), 'utf8');
    const tsx = readFileSync(new URL('./winners-page.tsx', import.meta.url), 'utf8');
    expect(tsx).toContain('className="site-table site-table--winners"');
    const phone = /@media \(max-width: 640px\) \{([\s\S]*?)\n\}/.exec(css)?.[1] ?? '';
    expect(phone).toMatch(/\.site-table--winners thead \{ display: none; \}/);
    expect(phone).toMatch(/\.site-table--winners tr \{[^}]*display: grid;[^}]*grid-template-columns: minmax\(0, 1fr\) auto;/);
    expect(phone).toMatch(/\.site-table--winners td:nth-child\(4\) \{ white-space: nowrap; \}/);
  });
});
