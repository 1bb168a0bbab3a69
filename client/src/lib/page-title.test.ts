import { describe, expect, it } from 'vitest';
import { documentTitle } from './page-title';

describe('documentTitle', () => {
  it('names the open item, the page and the site; leaves out empty parts and a repeat of the page', () => {
    expect(documentTitle('Betting record', 'Member Centre', 'LuckyPeso')).toBe('Betting record | Member Centre | LuckyPeso');
    expect(documentTitle(null, 'Home', 'LuckyPeso')).toBe('Home | LuckyPeso');
    expect(documentTitle('Home', 'Home', '')).toBe('Home');
    expect(documentTitle(null, '', 'LuckyPeso')).toBe('LuckyPeso');
  });
});
