import { cashierCalls } from '@portal/contracts/api/cashier';
import { call } from '../../../lib/api';

/** GET /wps/v2/withdrawals/:id (the rejection reason, which the event does not carry). */
export function getWithdrawal(id: string, signal?: AbortSignal) {
  return call(cashierCalls.withdrawal, { params: { id }, query: {}, signal });
}
