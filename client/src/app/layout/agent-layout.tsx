import { Outlet } from 'react-router-dom';
import { GlobalPopups } from './lazy-popups';
import { RouteEffects } from './route-effects';

/** /agent and /agentHome render the agent page alone (with the global popups, such as the forced password change; not the announcement popup). */
export function AgentLayout() {
  return (
    <div className="shell shell--agent">
      <RouteEffects />
      <Outlet />
      <GlobalPopups isAgentPage />
    </div>
  );
}
