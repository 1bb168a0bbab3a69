import type { ReactNode } from 'react';
import { SYSTEM_STATUS } from '@portal/contracts/domain/constants';
import { useSystemStatus } from '../../../lib/system-status';
import { lazyNamed } from '../../../app/lazy-page';

// Shown only when the gateway says so: their own chunks, not part of every page's first load.
const MaintenancePage = lazyNamed(() => import('./maintenance-page'), 'MaintenancePage', null);
const BlockedPage = lazyNamed(() => import('./blocked-page'), 'BlockedPage', null);

/**
 * Shows the maintenance or blocked page instead of the app, from GET /wps/system/status and,
 * live, from `system.maintenance` events (written into the same query). If the status cannot be
 * read the app renders anyway: its own calls then report what is wrong. The operator console
 * (`bypass`) is never closed by either.
 */
export function SystemGate({ children, bypass = false }: { children: ReactNode; bypass?: boolean }) {
  const { data, isPending } = useSystemStatus();
  // `bypass`: the operator console, where maintenance and blocking are switched off.
  if (bypass) return <>{children}</>;
  if (isPending) return null;
  if (data?.systemStatus === SYSTEM_STATUS.MAINTENANCE) return <MaintenancePage message={data.message} />;
  if (data?.systemStatus === SYSTEM_STATUS.BLOCKED) return <BlockedPage ip={data.ip} />;
  return <>{children}</>;
}
