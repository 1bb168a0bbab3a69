import { useState } from 'react';
import type { ReactNode } from 'react';
import { Navigate, useNavigate } from 'react-router-dom';
import { useAuth } from '../../features/auth/hooks/use-auth';
import { TrialNotice } from '../../features/auth/components/trial-notice';
import { useBreakNote } from '../../lib/break-note';
import { useIsLoggedIn } from '../../lib/session';

/** Where a member page sends a visitor without a session (see RequireAuth). */
export const signedOutPath = (isBreakStarted: boolean) => (isBreakStarted ? '/' : '/login');

/**
 * Route guard: without a session token the route redirects to /login; signed out by the break the
 * player has just started (lib/break-note), to the home page, where the layout says what happened.
 */
export function RequireAuth({ children }: { children: ReactNode }) {
  const isLoggedIn = useIsLoggedIn();
  const isBreakStarted = useBreakNote() !== null;
  if (!isLoggedIn) return <Navigate to={signedOutPath(isBreakStarted)} replace />;
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
