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
 * Chromium fetches a module again after a failed import of it (no failed-fetch cache); the chunk's CSS
 * is fetched again by reloadFailedStylesheets.
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

type StylesheetLink = { tagName: string; rel: string; href: string; crossOrigin: string | null; nonce?: string; remove: () => void };
type StylesheetDoc = {
  addEventListener(type: 'error', fn: (e: { target: unknown }) => void, capture: true): void;
  createElement(tag: 'link'): StylesheetLink;
  head: { appendChild(node: StylesheetLink): unknown };
};

/**
 * A stylesheet that failed to load is loaded again: at once when the network is back (offline), or up to
 * twice more, a second then two apart, online. Vite's preload helper asks for a chunk's stylesheet once per
 * page: after a page opened offline was retried (retryImport), it came back unstyled (the member centre's
 * tabs as a bulleted list) until a reload. Load errors do not bubble: the listener is the document's, in
 * the capture phase; the failed <link> is replaced by a new one.
 */
export function reloadFailedStylesheets({
  doc = document as unknown as StylesheetDoc,
  network = window as Network,
  wait = pause,
  attempts = 3,
}: { doc?: StylesheetDoc; network?: Network; wait?: (ms: number) => Promise<void>; attempts?: number } = {}): void {
  const failures = new Map<string, number>();
  doc.addEventListener(
    'error',
    (e) => {
      const el = e.target as StylesheetLink | null;
      if (el?.tagName !== 'LINK' || el.rel !== 'stylesheet' || !el.href) return;
      const { href, crossOrigin, nonce } = el;
      let again: Promise<void>;
      if (!network.navigator.onLine) again = whenOnline(network);
      else {
        const n = (failures.get(href) ?? 0) + 1;
        failures.set(href, n);
        if (n >= attempts) return; // given up on: the page stays as it is, a reload may do better
        again = wait(n * 1000);
      }
      el.remove();
      void again.then(() => {
        const fresh = doc.createElement('link');
        fresh.rel = 'stylesheet';
        if (crossOrigin !== null) fresh.crossOrigin = crossOrigin;
        if (nonce) fresh.nonce = nonce;
        fresh.href = href;
        doc.head.appendChild(fresh);
      });
    },
    true,
  );
}
