import { useState } from 'react';
import type { ReactNode } from 'react';
import { Navigate, useNavigate } from 'react-router-dom';
import { useAuth } from '../../features/auth/hooks/use-auth';
import { TrialNotice } from '../../features/auth/components/trial-notice';
import { useIsLoggedIn } from '../../lib/session';

/** Route guard: without a session token the route redirects to /login. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const isLoggedIn = useIsLoggedIn();
  if (!isLoggedIn) return <Navigate to="/login" replace />;
  return <>{children}</>;
}

/**
 * Member and account centres: a trial user gets the "register an account first" dialog instead of
 * the page, and leaves for home.
 */
export function RequireRealAccount({ children }: { children: ReactNode }) {
  const { isTrial } = useAuth();
  const navigate = useNavigate();
  const [isClosed, setClosed] = useState(false);
  if (!isTrial) return <>{children}</>;
  return (
    <TrialNotice
      open={!isClosed}
      onClose={() => {
        setClosed(true);
        navigate('/', { replace: true });
      }}
    />
  );
}

/** /agentHome: agents only; a guest or non-agent goes back to /agent. */
export function RequireAgent({ children, pending }: { children: ReactNode; pending: ReactNode }) {
  const { isLogin, isAgent, isMemberLoading } = useAuth();
  if (isLogin && isAgent) return <>{children}</>;
  // The login flag said non-agent but member info is still on its way: wait for it.
  if (isLogin && isMemberLoading) return <>{pending}</>;
  return <Navigate to="/agent" replace />;
}
