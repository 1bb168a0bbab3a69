import { afterEach, describe, expect, it, vi } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import { earlyAnswer, earlyAnswerAt, startEarlyCall, takeEarlyCall } from './early-calls';
import { hotGamesQueryOptions } from '../features/home/api/get-hot-games';
import { hotGamesCallKey } from '../features/home/api/home-calls';

const tick = () => new Promise((r) => setTimeout(r, 0));

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('early calls', () => {
  it('an answer that arrived is given once, with its time; a call still in flight is taken once', async () => {
    let resolve!: (v: string) => void;
    startEarlyCall('a', () => new Promise<string>((r) => (resolve = r)));
    expect(earlyAnswer('a')).toBeUndefined();
    resolve('A');
    await tick();
    expect(earlyAnswer<string>('a')).toBe('A');
    expect(earlyAnswerAt('a')).toBeGreaterThan(0);
    expect(earlyAnswer('a')).toBeUndefined();
    expect(takeEarlyCall('a')).toBeUndefined();

    startEarlyCall('b', () => Promise.resolve('B'));
    const p = takeEarlyCall<string>('b');
    expect(await p).toBe('B');
    expect(takeEarlyCall('b')).toBeUndefined();
    // a failed early call is not an answer; the query's own fetch reports it
    startEarlyCall('c', () => Promise.reject(new Error('offline')));
    await tick();
    expect(earlyAnswer('c')).toBeUndefined();
    await expect(takeEarlyCall('c')).rejects.toThrow('offline');
  });

  it('the hot games query starts with the early answer (no fetch of its own); without one it fetches', async () => {
    const fetch = vi.fn(async () => new Response(JSON.stringify({ success: true, value: { list: [] } }), { headers: { 'content-type': 'application/json' } }));
    vi.stubGlobal('fetch', fetch);
    const games = [{ nodeId: 'N1' }] as never;
    startEarlyCall(hotGamesCallKey('EN'), () => Promise.resolve(games));
    await tick();
    const qc = new QueryClient();
    expect(await qc.fetchQuery(hotGamesQueryOptions('EN'))).toBe(games);
    expect(fetch).not.toHaveBeenCalled();
    // another language had no early call: its own request
    await qc.fetchQuery(hotGamesQueryOptions('TY'));
    expect(fetch).toHaveBeenCalledTimes(1);
  });
});
