import { describe, expect, it } from 'vitest';
import { mergeMessages } from './merge-messages';

const m = (id: string, body = id) => ({ id, body });

describe('mergeMessages', () => {
  it('keeps each message once, oldest first by numeric id (9 before 10)', () => {
    const out = mergeMessages([m('9'), m('10')], [m('10', 'again'), m('11'), m('8')]);
    expect(out.map((x) => x.id)).toEqual(['8', '9', '10', '11']);
    expect(out.find((x) => x.id === '10')!.body).toBe('again');
  });
  it('answers the same list when nothing arrived', () => {
    const shown = [m('1')];
    expect(mergeMessages(shown, [])).toBe(shown);
  });
});
