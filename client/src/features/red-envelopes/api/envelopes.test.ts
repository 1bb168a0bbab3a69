import { describe, expect, it } from 'vitest';
import type { TOpenEnvelope } from '@portal/contracts/api/red-envelopes';
import { withEnvelope, withLeft, withoutEnvelope } from './envelopes';

const e = (id: string): TOpenEnvelope => ({ envelopeId: id, totalAmount: 100, count: 1, message: { en: null, ty: null }, droppedAt: '2026-01-01T00:00:00Z', expiresAt: '2026-01-01T01:00:00Z', left: 1 });

describe('open envelope list from live events', () => {
  it('puts a new drop first, once, even when the event arrives again (replay after a reconnect)', () => {
    const once = withEnvelope([e('1')], e('2'));
    expect(once.map((x) => x.envelopeId)).toEqual(['2', '1']);
    expect(withEnvelope(once, e('2')).map((x) => x.envelopeId)).toEqual(['2', '1']);
  });
  it('removes a closed or grabbed envelope', () => {
    expect(withoutEnvelope([e('1'), e('2')], '1').map((x) => x.envelopeId)).toEqual(['2']);
    expect(withoutEnvelope([], '1')).toEqual([]);
  });
  it('sets the live shares-left count of that envelope only, and drops one with none left', () => {
    const list = [{ ...e('1'), count: 10, left: 10 }, { ...e('2'), count: 5, left: 5 }];
    expect(withLeft(list, '1', 7).map((x) => x.left)).toEqual([7, 5]);
    expect(withLeft(list, '9', 7).map((x) => x.left)).toEqual([10, 5]);
    expect(withLeft(list, '2', 0).map((x) => x.envelopeId)).toEqual(['1']);
  });
});
