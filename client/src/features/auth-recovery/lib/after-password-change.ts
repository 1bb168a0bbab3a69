/**
 * Where the change-password modal goes once the password is changed. An agent (the login's isAgent:
 * types 1, 2, 41, 42 or the merchant's configured agent types, spec section 6) goes to its back office
 * /agentHome after a forced change (first login with a temporary password, or an expired one) and
 * after a change started from the agent pages; everyone else, and a change from the member centre,
 * goes to the home page.
 */
export function landingAfterPasswordChange(p: { isForced: boolean; isAgent: boolean; pathname: string }): '/agentHome' | '/' {
  if (!p.isAgent) return '/';
  const fromAgentPages = p.pathname === '/agent' || p.pathname === '/agentHome';
  return p.isForced || fromAgentPages ? '/agentHome' : '/';
}
