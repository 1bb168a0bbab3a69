import type { OpsAction } from '@portal/contracts/api/ops';

/**
 * Each section with the action that opens it: an operator sees the sections its roles allow
 * (`platform`: only the platform administrator, whatever the roles).
 */
export const OPS_NAV: ReadonlyArray<{ to: string; key: string; id: string; action: OpsAction; platform?: true }> = [
  { to: '/ops/deposits', key: 'nav_deposits', id: 'deposits', action: 'deposits.read' },
  { to: '/ops/withdrawals', key: 'nav_withdrawals', id: 'withdrawals', action: 'withdrawals.read' },
  { to: '/ops/adjustments', key: 'nav_adjustments', id: 'adjustments', action: 'balance.adjust' },
  { to: '/ops/agents', key: 'nav_agents', id: 'agents', action: 'agents.read' },
  { to: '/ops/agent-contracts', key: 'nav_agent_contracts', id: 'agent-contracts', action: 'agents.read' },
  { to: '/ops/agent-disputes', key: 'nav_agent_disputes', id: 'agent-disputes', action: 'disputes.read' },
  // After the queues and agents: no role's landing page (the first section it may open) moves.
  { to: '/ops/players', key: 'nav_players', id: 'players', action: 'players.read' },
  { to: '/ops/site', key: 'nav_site', id: 'site', action: 'site.read' },
  { to: '/ops/brand', key: 'nav_brand', id: 'brand', action: 'site.read' },
  { to: '/ops/games', key: 'nav_games', id: 'games', action: 'games.read' },
  { to: '/ops/feedback', key: 'nav_feedback', id: 'feedback', action: 'feedback.read' },
  { to: '/ops/promotions', key: 'nav_promotions', id: 'promotions', action: 'promotions.read' },
  { to: '/ops/missions', key: 'nav_missions', id: 'missions', action: 'missions.read' },
  { to: '/ops/content', key: 'nav_content', id: 'content', action: 'content.read' },
  { to: '/ops/envelopes', key: 'nav_envelopes', id: 'envelopes', action: 'envelopes.read' },
  { to: '/ops/points', key: 'nav_points', id: 'points', action: 'points.read' },
  { to: '/ops/operators', key: 'nav_operators', id: 'operators', action: 'operators.manage' },
  { to: '/ops/rg', key: 'nav_rg', id: 'rg', action: 'rg.read' },
  { to: '/ops/audit', key: 'nav_audit', id: 'audit', action: 'audit.read' },
  { to: '/ops/settings', key: 'nav_settings', id: 'settings', action: 'cashier.settings.read' },
  { to: '/ops/merchants', key: 'nav_merchants', id: 'merchants', action: 'operators.manage', platform: true },
];

/** The sections an operator sees. */
export const visibleNav = (roles: readonly string[], isPlatform: boolean, can: (roles: readonly string[], a: OpsAction) => boolean) =>
  OPS_NAV.filter((n) => (n.platform ? isPlatform : can(roles, n.action)));

