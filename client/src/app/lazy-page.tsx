import { Suspense, lazy } from 'react';
import type { ComponentType, ReactNode } from 'react';
import { loadNamespaces } from '../i18n/i18n';
import { retryImport } from '../lib/retry-import';

type PropsOf<C> = C extends ComponentType<infer P> ? P : never;

/** What a route shows while its chunk loads: the shell stays, the page area spins. */
export const PAGE_FALLBACK = <div className="page-spinner" aria-hidden="true" />;

/**
 * A page (or shell part) loaded on demand: `lazyNamed(() => import('./x'), 'XPage')` gives a
 * component that renders XPage from its own chunk, inside Suspense with `fallback`. The chunk is
 * fetched the first time the component renders (or on `preload()`, for a likely next page), with
 * the translation namespaces `ns` it uses.
 */
export function lazyNamed<M extends Record<string, unknown>, K extends keyof M & string>(
  load: () => Promise<M>,
  name: K,
  fallback: ReactNode = PAGE_FALLBACK,
  /** Translation namespaces the chunk needs, fetched with it (no flash of untranslated keys). */
  ns: readonly string[] = [],
): ComponentType<PropsOf<M[K]>> & { preload: () => Promise<unknown> } {
  let pending: Promise<M> | null = null;
  // Offline, a failed chunk waits for the network (retryImport): React.lazy keeps a rejection for
  // good, and the route's error page took the place of the whole portal.
  const once = () => (pending ??= Promise.all([retryImport(load), loadNamespaces(ns)]).then(([m]) => m).catch((err: unknown) => {
    pending = null; // given up on (online, three failures): a preload() may try again
    throw err;
  }));
  const Lazy = lazy(async () => ({ default: (await once())[name] as ComponentType<object> }));
  function LazyPage(props: object) {
    return (
      <Suspense fallback={fallback}>
        <Lazy {...props} />
      </Suspense>
    );
  }
  LazyPage.displayName = `Lazy(${name})`;
  return Object.assign(LazyPage, { preload: once }) as never;
}
