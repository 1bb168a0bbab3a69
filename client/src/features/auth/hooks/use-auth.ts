import { useEffect } from 'react';
import { setLoginFlags, useLoginFlags } from '../../../lib/login-state';
import { useIsLoggedIn } from '../../../lib/session';
import { useMemberInfo } from '../api/get-member-info';
import type { TMemberInfo } from '../lib/auth-types';

export type AuthState = {
  isLogin: boolean;
  isAgent: boolean;
  isTrial: boolean;
  member: TMemberInfo | null;
  /** Logged in, member info not there yet. */
  isMemberLoading: boolean;
};

/** Login state (spec section 3): flags from the login answer until member info says otherwise. */
export function useAuth(): AuthState {
  const isLogin = useIsLoggedIn();
  const flags = useLoginFlags();
  const { data, isPending } = useMemberInfo();
  const member = isLogin ? (data ?? null) : null;
  useEffect(() => {
    if (member) setLoginFlags({ isAgent: member.isAgent, isTrial: member.isTrial });
  }, [member]);
  return {
    isLogin,
    isAgent: isLogin && (member?.isAgent ?? flags.isAgent),
    isTrial: isLogin && (member?.isTrial ?? flags.isTrial),
    member,
    isMemberLoading: isLogin && isPending,
  };
}
