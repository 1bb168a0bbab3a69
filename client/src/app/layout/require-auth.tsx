import type { ReactNode } from 'react';
import { Navigate } from 'react-router-dom';
import { useIsLoggedIn } from '../../lib/session';

/** Route guard: without a session token the route redirects to /login. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const isLoggedIn = useIsLoggedIn();
  if (!isLoggedIn) return <Navigate to="/login" replace />;
  return <>{children}</>;
}
