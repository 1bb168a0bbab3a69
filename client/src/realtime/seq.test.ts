import { describe, expect, it } from 'vitest';
import type { EventType, TEventEnvelope } from '@portal/contracts/events/events';
import { INITIAL_SEQ_STATE, receiveEvent, receiveEvents, resetAudience, syncRequestFor } from './seq';
import type { SeqState } from './seq';

const A = 'merchant:DEMO';
const U = 'user:7';

function ev(seq: number, audience = A, type: EventType = 'winner.posted'): TEventEnvelope {
  const payload =
    type === 'system.resync'
      ? { audience, reason: 'gap too old' }
      : { id: `w${seq}`, iconUrl: null, winAmount: 100, gameName: 'g', customerName: 'c', at: '2025-01-01T00:00:00Z' };
  return { id: `e${seq}`, type, v: 1, audience, seq, at: '2025-01-01T00:00:00Z', payload } as TEventEnvelope;
}

const seqs = (list: TEventEnvelope[]) => list.map((e) => e.seq);

function feed(state: SeqState, list: TEventEnvelope[]) {
  return receiveEvents(state, list);
}

describe('receiveEvent', () => {
  it('accepts the first event of an unknown audience whatever its seq', () => {
    const o = receiveEvent(INITIAL_SEQ_STATE, ev(42));
    expect(seqs(o.apply)).toEqual([42]);
    expect(o.state.last[A]).toBe(42);
    expect(o.gap).toBeNull();
  });

  it('applies the next seq and drops duplicates and older ones', () => {
    let s = receiveEvent(INITIAL_SEQ_STATE, ev(5)).state;
    const next = receiveEvent(s, ev(6));
    expect(seqs(next.apply)).toEqual([6]);
    s = next.state;
    expect(receiveEvent(s, ev(6)).apply).toEqual([]);
    expect(receiveEvent(s, ev(3)).apply).toEqual([]);
    expect(receiveEvent(s, ev(6)).state).toBe(s);
  });

  it('buffers after a gap, asks for a sync, then drains in order when the gap fills', () => {
    let s = receiveEvent(INITIAL_SEQ_STATE, ev(1)).state;
    const g1 = receiveEvent(s, ev(4));
    expect(g1.apply).toEqual([]);
    expect(g1.gap).toBe(A);
    s = receiveEvent(g1.state, ev(3)).state;
    expect(s.pending[A]?.map((e) => e.seq)).toEqual([3, 4]);
    expect(syncRequestFor(s, A)).toEqual({ last: { [A]: 1 } });
    const filled = receiveEvent(s, ev(2));
    expect(seqs(filled.apply)).toEqual([2, 3, 4]);
    expect(filled.state.last[A]).toBe(4);
    expect(filled.state.pending[A]).toBeUndefined();
    expect(filled.gap).toBeNull();
  });

  it('does not buffer the same seq twice', () => {
    let s = receiveEvent(INITIAL_SEQ_STATE, ev(1)).state;
    s = receiveEvent(s, ev(3)).state;
    s = receiveEvent(s, ev(3)).state;
    expect(s.pending[A]?.length).toBe(1);
  });

  it('keeps audiences independent', () => {
    let s = feed(INITIAL_SEQ_STATE, [ev(10, A), ev(1, U)]).state;
    const o = receiveEvent(s, ev(2, U));
    expect(seqs(o.apply)).toEqual([2]);
    s = receiveEvent(o.state, ev(12, A)).state;
    expect(s.last).toEqual({ [A]: 10, [U]: 2 });
    expect(Object.keys(s.pending)).toEqual([A]);
  });

  it('applies a sync reply in order, skipping what was already applied', () => {
    let s = feed(INITIAL_SEQ_STATE, [ev(1), ev(5)]).state;
    const o = receiveEvents(s, [ev(1), ev(2), ev(3), ev(4)]);
    expect(seqs(o.apply)).toEqual([2, 3, 4, 5]);
    expect(o.gap).toBeNull();
    s = o.state;
    expect(s.last[A]).toBe(5);
  });

  it('reports a remaining gap when a sync reply does not fill it', () => {
    const s = feed(INITIAL_SEQ_STATE, [ev(1), ev(5)]).state;
    const o = receiveEvents(s, [ev(2)]);
    expect(seqs(o.apply)).toEqual([2]);
    expect(o.gap).toBe(A);
  });
});

describe('system.resync', () => {
  it('resets the audience to the resync seq and drains buffered successors', () => {
    let s = feed(INITIAL_SEQ_STATE, [ev(1), ev(9), ev(11)]).state;
    const o = receiveEvent(s, ev(10, A, 'system.resync'));
    expect(seqs(o.apply)).toEqual([10, 11]);
    expect(o.apply[0]?.type).toBe('system.resync');
    s = o.state;
    expect(s.last[A]).toBe(11);
    expect(s.pending[A]).toBeUndefined();
  });

  it('is dropped as a duplicate when its seq was already applied', () => {
    const s = feed(INITIAL_SEQ_STATE, [ev(1), ev(2)]).state;
    expect(receiveEvent(s, ev(2, A, 'system.resync')).apply).toEqual([]);
  });
});

describe('resetAudience (failed sync)', () => {
  it('takes the oldest buffered event as the new baseline', () => {
    const s = feed(INITIAL_SEQ_STATE, [ev(1), ev(5), ev(6), ev(8)]).state;
    const o = resetAudience(s, A);
    expect(seqs(o.apply)).toEqual([5, 6]);
    expect(o.state.last[A]).toBe(6);
    expect(o.state.pending[A]?.map((e) => e.seq)).toEqual([8]);
    expect(o.gap).toBe(A);
  });

  it('with nothing buffered, forgets the audience so the next event is accepted', () => {
    const s = feed(INITIAL_SEQ_STATE, [ev(1)]).state;
    const o = resetAudience(s, A);
    expect(o.state.last[A]).toBeUndefined();
    expect(seqs(receiveEvent(o.state, ev(100)).apply)).toEqual([100]);
  });
});
