import type { OpsAction } from '@portal/contracts/api/ops';

/** Each section with the action that opens it: an operator sees the sections its roles allow. */
export const OPS_NAV: ReadonlyArray<{ to: string; key: string; id: string; action: OpsAction }> = [
  { to: '/ops/deposits', key: 'nav_deposits', id: 'deposits', action: 'deposits.read' },
  { to: '/ops/withdrawals', key: 'nav_withdrawals', id: 'withdrawals', action: 'withdrawals.read' },
  { to: '/ops/adjustments', key: 'nav_adjustments', id: 'adjustments', action: 'balance.adjust' },
  { to: '/ops/agents', key: 'nav_agents', id: 'agents', action: 'agents.read' },
  { to: '/ops/agent-contracts', key: 'nav_agent_contracts', id: 'agent-contracts', action: 'agents.read' },
  { to: '/ops/agent-disputes', key: 'nav_agent_disputes', id: 'agent-disputes', action: 'disputes.read' },
  { to: '/ops/site', key: 'nav_site', id: 'site', action: 'site.read' },
  { to: '/ops/games', key: 'nav_games', id: 'games', action: 'games.read' },
  { to: '/ops/envelopes', key: 'nav_envelopes', id: 'envelopes', action: 'envelopes.read' },
  { to: '/ops/operators', key: 'nav_operators', id: 'operators', action: 'operators.manage' },
  { to: '/ops/audit', key: 'nav_audit', id: 'audit', action: 'audit.read' },
  { to: '/ops/settings', key: 'nav_settings', id: 'settings', action: 'cashier.settings.read' },
];

