import type { OpsAction } from '@portal/contracts/api/ops';

/**
 * Each section with the action that opens it: an operator sees the sections its roles allow
 * (`platform`: only the platform administrator, whatever the roles).
 */
export type OpsNavGroup = 'cashier' | 'agents' | 'players' | 'marketing' | 'site' | 'admin';

/** The side navigation's groups, top to bottom (each with its heading `nav_group_<id>`). */
export const OPS_NAV_GROUPS: readonly OpsNavGroup[] = ['cashier', 'agents', 'players', 'marketing', 'site', 'admin'];

export const OPS_NAV: ReadonlyArray<{ to: string; key: string; id: string; action: OpsAction; group: OpsNavGroup; platform?: true }> = [
  { to: '/ops/deposits', key: 'nav_deposits', id: 'deposits', group: 'cashier', action: 'deposits.read' },
  { to: '/ops/withdrawals', key: 'nav_withdrawals', id: 'withdrawals', group: 'cashier', action: 'withdrawals.read' },
  { to: '/ops/adjustments', key: 'nav_adjustments', id: 'adjustments', group: 'cashier', action: 'balance.adjust' },
  { to: '/ops/agents', key: 'nav_agents', id: 'agents', group: 'agents', action: 'agents.read' },
  { to: '/ops/agent-contracts', key: 'nav_agent_contracts', id: 'agent-contracts', group: 'agents', action: 'agents.read' },
  { to: '/ops/agent-disputes', key: 'nav_agent_disputes', id: 'agent-disputes', group: 'agents', action: 'disputes.read' },
  { to: '/ops/agent-payouts', key: 'nav_agent_payouts', id: 'agent-payouts', group: 'agents', action: 'disputes.read' },
  { to: '/ops/agent-applications', key: 'nav_agent_applications', id: 'agent-applications', group: 'agents', action: 'agents.read' },
  // After the queues and agents: no role's landing page (the first section it may open) moves.
  { to: '/ops/players', key: 'nav_players', id: 'players', group: 'players', action: 'players.read' },
  { to: '/ops/site', key: 'nav_site', id: 'site', group: 'site', action: 'site.read' },
  { to: '/ops/brand', key: 'nav_brand', id: 'brand', group: 'site', action: 'site.read' },
  { to: '/ops/games', key: 'nav_games', id: 'games', group: 'site', action: 'games.read' },
  { to: '/ops/providers', key: 'nav_providers', id: 'providers', group: 'site', action: 'games.read' },
  { to: '/ops/feedback', key: 'nav_feedback', id: 'feedback', group: 'players', action: 'feedback.read' },
  { to: '/ops/chats', key: 'nav_chats', id: 'chats', group: 'players', action: 'chat.answer' },
  { to: '/ops/promotions', key: 'nav_promotions', id: 'promotions', group: 'marketing', action: 'promotions.read' },
  { to: '/ops/missions', key: 'nav_missions', id: 'missions', group: 'marketing', action: 'missions.read' },
  { to: '/ops/content', key: 'nav_content', id: 'content', group: 'marketing', action: 'content.read' },
  { to: '/ops/envelopes', key: 'nav_envelopes', id: 'envelopes', group: 'marketing', action: 'envelopes.read' },
  { to: '/ops/points', key: 'nav_points', id: 'points', group: 'marketing', action: 'points.read' },
  { to: '/ops/operators', key: 'nav_operators', id: 'operators', group: 'admin', action: 'operators.manage' },
  { to: '/ops/rg', key: 'nav_rg', id: 'rg', group: 'players', action: 'rg.read' },
  { to: '/ops/audit', key: 'nav_audit', id: 'audit', group: 'admin', action: 'audit.read' },
  { to: '/ops/settings', key: 'nav_settings', id: 'settings', group: 'cashier', action: 'cashier.settings.read' },
  { to: '/ops/merchants', key: 'nav_merchants', id: 'merchants', group: 'admin', action: 'operators.manage', platform: true },
];

/** The sections an operator sees. */
export const visibleNav = (roles: readonly string[], isPlatform: boolean, can: (roles: readonly string[], a: OpsAction) => boolean) =>
  OPS_NAV.filter((n) => (n.platform ? isPlatform : can(roles, n.action)));


/** The visible sections by group, in OPS_NAV_GROUPS order; groups with no visible section are left out. */
export function groupedNav<T extends { group: OpsNavGroup }>(items: readonly T[]): Array<{ group: OpsNavGroup; items: T[] }> {
  return OPS_NAV_GROUPS.map((group) => ({ group, items: items.filter((n) => n.group === group) })).filter((g) => g.items.length > 0);
}

/**
 * The section a console address belongs to (the longest section path it is, or is under: /ops/players/7
 * is Players), or undefined for /ops itself and addresses of no section.
 */
export function sectionOf(pathname: string) {
  // The router matches addresses whatever their case (/ops/AUDIT is the audit page): so does this.
  const path = pathname.replace(/\/+$/, '').toLowerCase();
  return OPS_NAV.filter((n) => path === n.to.toLowerCase() || path.startsWith(`${n.to.toLowerCase()}/`)).sort((a, b) => b.to.length - a.to.length)[0];
}
