import { describe, expect, it } from 'vitest';
import { retryImport, type Network } from './retry-import';

/** A network that can go and come back, with its 'online' event. */
function fakeNetwork(onLine: boolean) {
  const listeners = new Set<() => void>();
  const net: Network & { set: (v: boolean) => void } = {
    navigator: { onLine },
    addEventListener: (_type, fn) => void listeners.add(fn),
    removeEventListener: (_type, fn) => void listeners.delete(fn),
    set(v) {
      net.navigator.onLine = v;
      if (v) for (const fn of [...listeners]) fn();
    },
  };
  return net;
}
const tick = () => new Promise((r) => setTimeout(r, 0));

describe('retryImport', () => {
  it('offline, a failed chunk waits for the network and loads when it is back, however long that takes', async () => {
    const net = fakeNetwork(false);
    let calls = 0;
    const load = async () => {
      calls++;
      if (!net.navigator.onLine) throw new TypeError('Failed to fetch dynamically imported module');
      return 'chunk';
    };
    const waits: number[] = [];
    const result = retryImport(load, { network: net, wait: async (ms) => void waits.push(ms) });
    let settled = false;
    void result.then(() => (settled = true), () => (settled = true));
    for (let i = 0; i < 5; i++) await tick();
    expect(settled).toBe(false); // still waiting, not an error
    expect(calls).toBe(1);
    net.set(true);
    await expect(result).resolves.toBe('chunk');
    expect(calls).toBe(2);
    expect(waits).toEqual([]); // no counted failure
  });

  it('online, it tries three times, a second then two apart, and then gives the error to the page', async () => {
    const net = fakeNetwork(true);
    let calls = 0;
    const waits: number[] = [];
    const err = new TypeError('500');
    await expect(retryImport(async () => { calls++; throw err; }, { network: net, wait: async (ms) => void waits.push(ms) })).rejects.toBe(err);
    expect(calls).toBe(3);
    expect(waits).toEqual([1000, 2000]);
  });

  it('a passing hiccup online costs one retry', async () => {
    const net = fakeNetwork(true);
    let calls = 0;
    await expect(retryImport(async () => (++calls === 1 ? Promise.reject(new Error('reset')) : 'ok'), { network: net, wait: async () => {} })).resolves.toBe('ok');
    expect(calls).toBe(2);
  });
});
