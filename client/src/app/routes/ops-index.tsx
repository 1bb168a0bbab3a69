import { Navigate } from 'react-router-dom';

/** /ops (and unknown /ops paths) once signed in: the deposit queue. */
export function OpsIndex() {
  return <Navigate to="/ops/deposits" replace />;
}
