import { Outlet } from 'react-router-dom';
import { RouteEffects } from './route-effects';

/** /agent and /agentHome render the agent page alone. */
export function AgentLayout() {
  return (
    <div className="shell shell--agent">
      <RouteEffects />
      <Outlet />
    </div>
  );
}
