import { describe, expect, it } from 'vitest';
import { reloadFailedStylesheets, retryImport, type Network } from './retry-import';

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

describe('reloadFailedStylesheets', () => {
  function world(onLine: boolean) {
    const net = fakeNetwork(onLine);
    let listener: ((e: { target: unknown }) => void) | null = null;
    let capture: unknown;
    const added: string[] = [];
    const removed: string[] = [];
    const link = (href: string, rel = 'stylesheet', tagName = 'LINK') => ({ tagName, rel, href, crossOrigin: '', nonce: '', remove: () => removed.push(href) });
    const waits: number[] = [];
    reloadFailedStylesheets({
      doc: {
        addEventListener: (_t, fn, c) => { listener = fn; capture = c; },
        createElement: () => link(''),
        head: { appendChild: (n) => added.push(`${n.rel} ${n.href}`) },
      },
      network: net,
      wait: async (ms) => void waits.push(ms),
    });
    return { net, fail: (target: unknown) => listener!({ target }), capture: () => capture, added, removed, link, waits };
  }

  it('offline, a failed stylesheet is put back when the network is back (Vite asks for it once per page)', async () => {
    const w = world(false);
    expect(w.capture()).toBe(true); // load errors do not bubble
    w.fail(w.link('/assets/member-centre.css'));
    w.fail(w.link('/assets/chunk.js', 'modulepreload'));
    w.fail(w.link('/img/x.png', '', 'IMG'));
    w.fail(null);
    expect(w.removed).toEqual(['/assets/member-centre.css']);
    await tick();
    expect(w.added).toEqual([]);
    w.net.set(true);
    await tick();
    expect(w.added).toEqual(['stylesheet /assets/member-centre.css']);
  });

  it('online, it tries twice more, a second then two apart, then leaves it', async () => {
    const w = world(true);
    for (let i = 0; i < 4; i++) {
      w.fail(w.link('/assets/gone.css'));
      await tick();
    }
    expect(w.waits).toEqual([1000, 2000]);
    expect(w.added).toEqual(['stylesheet /assets/gone.css', 'stylesheet /assets/gone.css']);
  });
});
