import { Suspense, useState, useSyncExternalStore } from 'react';
import { RouterProvider } from 'react-router-dom';
import { SystemGate } from '../features/system/components/system-gate';
import { AppProvider } from './provider';
import { createRouter } from './router';

/** The operator console stays reachable in maintenance and from a blocked address: operators switch these off there. */
export const isOpsPath = (pathname: string) => pathname === '/ops' || pathname.startsWith('/ops/');

export function App() {
  const [router] = useState(createRouter);
  const pathname = useSyncExternalStore(
    (onChange) => router.subscribe(onChange),
    () => router.state.location.pathname,
  );
  return (
    <AppProvider>
      <SystemGate bypass={isOpsPath(pathname)}>
        {/* The last boundary for a component waiting for its translations (i18n.ts, useSuspense): nearer ones keep the shell. */}
        <Suspense fallback={<div className="page-spinner" aria-hidden="true" />}>
          <RouterProvider router={router} />
        </Suspense>
      </SystemGate>
    </AppProvider>
  );
}
