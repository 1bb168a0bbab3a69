import { describe, expect, it } from 'vitest';
import { MutationObserver, QueryClient } from '@tanstack/react-query';
import { ApiError } from './api';
import { createSingleFlight, isDuplicateError, shownError } from './single-flight';

/** A server that does the write once: the first call pays after `ms`, any later one answers 409 `code`. */
function server(code: string, ms = 20) {
  let calls = 0;
  return {
    calls: () => calls,
    write: (_: number) => {
      const n = ++calls;
      return new Promise<{ amount: number }>((resolve, reject) =>
        setTimeout(() => (n === 1 ? resolve({ amount: 500 }) : reject(new ApiError(code, 'already', 409))), n === 1 ? ms : 1));
    },
  };
}

describe('a double tap on a write button (grab, join, claim)', () => {
  it('without a guard: two requests go out and the mutation ends on the second one\'s 409 (what QA saw)', async () => {
    const s = server('CONFLICT');
    const m = new MutationObserver(new QueryClient(), { mutationFn: s.write });
    const first = m.mutate(1);
    const second = m.mutate(1);
    await Promise.allSettled([first, second]);
    expect(s.calls()).toBe(2);
    expect(m.getCurrentResult().status).toBe('error');
  });

  it('with the guard: the second tap sends nothing, the mutation ends on the success', async () => {
    const s = server('CONFLICT');
    const m = new MutationObserver(new QueryClient(), { mutationFn: s.write });
    const flight = createSingleFlight();
    const first = flight.run('join', () => m.mutate(1));
    const second = flight.run('join', () => m.mutate(1));
    expect(first).not.toBeNull();
    expect(second).toBeNull();
    await first;
    expect(s.calls()).toBe(1);
    expect(m.getCurrentResult()).toMatchObject({ status: 'success', data: { amount: 500 } });
  });

  it('the key is free again once the request settles, failed or not (a retry after a network error is possible)', async () => {
    const flight = createSingleFlight();
    await flight.run('a', () => Promise.resolve(1));
    expect(flight.isOut('a')).toBe(false);
    await expect(flight.run('a', () => Promise.reject(new Error('offline')))).rejects.toThrow('offline');
    expect(flight.isOut('a')).toBe(false);
    expect(() => flight.run('a', () => { throw new Error('sync'); })).toThrow('sync');
    expect(flight.isOut('a')).toBe(false);
    expect(flight.run('a', () => new Promise(() => undefined))).not.toBeNull();
    expect(flight.isOut('a')).toBe(true);
  });

  it('one key does not hold another (two missions or two rewards can be claimed one after the other)', () => {
    const flight = createSingleFlight();
    const never = () => new Promise<never>(() => undefined);
    expect(flight.run('1:D2026-12-05', never)).not.toBeNull();
    expect(flight.run('2:D2026-12-05', never)).not.toBeNull();
    expect(flight.run('1:D2026-12-05', never)).toBeNull();
  });
});

describe('a success is not replaced by a later "already done"', () => {
  const conflict = new ApiError('CONFLICT', 'Already joined', 409);
  const grabbed = new ApiError('ENVELOPE_ALREADY_GRABBED', 'Already grabbed', 409);
  const empty = new ApiError('ENVELOPE_EMPTY', 'Empty', 409);

  it('hides the 409 of a key that succeeded; keeps it for a key that did not, and keeps every other error', () => {
    const succeeded = new Map([['join', { ok: true }], ['e1', { amount: 500 }]]);
    expect(shownError(conflict, 'join', succeeded)).toBeNull();
    expect(shownError(grabbed, 'e1', succeeded)).toBeNull();
    expect(shownError(conflict, 'claim', succeeded)).toBe(conflict);
    expect(shownError(conflict, null, succeeded)).toBe(conflict);
    expect(shownError(empty, 'e1', succeeded)).toBe(empty);
    expect(shownError(null, 'join', succeeded)).toBeNull();
  });

  it('the duplicate codes are the 409s of a repeated write', () => {
    expect(isDuplicateError(conflict)).toBe(true);
    expect(isDuplicateError(grabbed)).toBe(true);
    expect(isDuplicateError(empty)).toBe(false);
    expect(isDuplicateError(new Error('CONFLICT'))).toBe(false);
  });
});
