/** What retryImport needs of the browser: whether it has a network, and its 'online' event. */
export type Network = {
  navigator: { onLine: boolean };
  addEventListener(type: 'online', fn: () => void): void;
  removeEventListener(type: 'online', fn: () => void): void;
};

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function whenOnline(network: Network): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      network.removeEventListener('online', done);
      resolve();
    };
    network.addEventListener('online', done);
    // It may have come back between the failure and now.
    if (network.navigator.onLine) done();
  });
}

/**
 * A chunk (or a translation) fetched on demand, which a lost connection does not break. Offline, a
 * failed fetch waits for the network and tries again, as often as the network comes and goes: the
 * page keeps its spinner or its empty slot meanwhile. Online, it tries `attempts` times in all, a
 * second, then two, apart, before the error reaches the page's error boundary (which offers a reload).
 *
 * A phone losing its signal while a shell part (the envelope host, the account slot) or a page was
 * loading got the error page in place of the whole portal, and kept it when the signal came back.
 * Chromium fetches a module again after a failed import of it (no failed-fetch cache), and so do
 * Vite's preload helpers for the chunk's CSS.
 */
export async function retryImport<T>(
  load: () => Promise<T>,
  { attempts = 3, network = typeof window === 'undefined' ? undefined : window, wait = pause }: { attempts?: number; network?: Network; wait?: (ms: number) => Promise<void> } = {},
): Promise<T> {
  for (let failures = 0; ; ) {
    try {
      return await load();
    } catch (err) {
      if (network && !network.navigator.onLine) {
        await whenOnline(network);
        continue;
      }
      if (++failures >= attempts) throw err;
      await wait(failures * 1000);
    }
  }
}
