import { Navigate } from 'react-router-dom';
import { opsCan } from '@portal/contracts/api/ops';
import { useOpsSession } from '../../features/ops/api/get-session';
import { OPS_NAV } from '../../features/ops/lib/ops-nav';

/** /ops (and unknown /ops paths) once signed in: the first section the operator's roles open. */
export function OpsIndex() {
  const roles = useOpsSession().data?.roles;
  if (!roles) return null;
  const first = OPS_NAV.find((n) => opsCan(roles, n.action));
  return <Navigate to={first?.to ?? '/ops/site'} replace />;
}
