import type { RouteObject } from 'react-router-dom';
import type { RouteHandle } from '../route-handle';
import { loadNamespaces } from '../../i18n/i18n';
import { RouteError } from './route-error';
import { PAGE_FALLBACK } from '../lazy-page';

const handle = (titleKey: string): RouteHandle => ({ titleKey, footer: false });

/**
 * The operator back office: its own layout and login (the gate signs in at any /ops path, so deep
 * links work); /ops itself opens the deposit queue once signed in. Loaded on demand: players never
 * download it.
 */
export const OPS_ROUTE: RouteObject = {
  id: 'opsShell',
  path: '/ops',
  lazy: async () => {
    const [m] = await Promise.all([import('../layout/ops-layout'), loadNamespaces(['ops'])]);
    return { Component: m.OpsLayout };
  },
  // Shown while the lazy shell loads on a first visit (the router's initial hydration): no blank page, no warning.
  hydrateFallbackElement: PAGE_FALLBACK,
  errorElement: <RouteError />,
  handle: handle('ops:area_name'),
  children: [
    { id: 'ops', index: true, lazy: async () => ({ Component: (await import('./ops-index')).OpsIndex }), handle: handle('ops:area_name') },
    { id: 'opsDeposits', path: 'deposits', lazy: async () => ({ Component: (await import('../../features/ops/components/deposits-page')).DepositsPage }), handle: handle('ops:nav_deposits') },
    { id: 'opsWithdrawals', path: 'withdrawals', lazy: async () => ({ Component: (await import('../../features/ops/components/withdrawals-page')).WithdrawalsPage }), handle: handle('ops:nav_withdrawals') },
    { id: 'opsAdjustments', path: 'adjustments', lazy: async () => ({ Component: (await import('../../features/ops/components/adjustments-page')).AdjustmentsPage }), handle: handle('ops:nav_adjustments') },
    { id: 'opsAgents', path: 'agents', lazy: async () => ({ Component: (await import('../../features/ops/components/agents-tree-page')).AgentsTreePage }), handle: handle('ops:nav_agents') },
    { id: 'opsAgentContracts', path: 'agent-contracts', lazy: async () => ({ Component: (await import('../../features/ops/components/agents-contracts-page')).AgentContractsPage }), handle: handle('ops:nav_agent_contracts') },
    { id: 'opsAgentDisputes', path: 'agent-disputes', lazy: async () => ({ Component: (await import('../../features/ops/components/agents-disputes-page')).AgentDisputesPage }), handle: handle('ops:nav_agent_disputes') },
    { id: 'opsAgentApplications', path: 'agent-applications', lazy: async () => ({ Component: (await import('../../features/ops/components/agent-applications-page')).AgentApplicationsPage }), handle: handle('ops:nav_agent_applications') },
    { id: 'opsAgentPayouts', path: 'agent-payouts', lazy: async () => ({ Component: (await import('../../features/ops/components/agents-payouts-page')).AgentPayoutsPage }), handle: handle('ops:nav_agent_payouts') },
    { id: 'opsAudit', path: 'audit', lazy: async () => ({ Component: (await import('../../features/ops/components/audit-page')).AuditPage }), handle: handle('ops:nav_audit') },
    { id: 'opsSettings', path: 'settings', lazy: async () => ({ Component: (await import('../../features/ops/components/settings-page')).SettingsPage }), handle: handle('ops:nav_settings') },
    { id: 'opsSite', path: 'site', lazy: async () => ({ Component: (await import('../../features/ops/components/site-page')).SitePage }), handle: handle('ops:nav_site') },
    { id: 'opsGames', path: 'games', lazy: async () => ({ Component: (await import('../../features/ops/components/games-page')).GamesPage }), handle: handle('ops:nav_games') },
    { id: 'opsProviders', path: 'providers', lazy: async () => ({ Component: (await import('../../features/ops/components/providers-page')).ProvidersPage }), handle: handle('ops:nav_providers') },
    { id: 'opsChats', path: 'chats', lazy: async () => ({ Component: (await import('../../features/ops/components/chats-page')).ChatsPage }), handle: handle('ops:nav_chats') },
    { id: 'opsFeedback', path: 'feedback', lazy: async () => ({ Component: (await import('../../features/ops/components/feedback-page')).FeedbackPage }), handle: handle('ops:nav_feedback') },
    { id: 'opsPlayers', path: 'players', lazy: async () => ({ Component: (await import('../../features/ops/components/players-page')).PlayersPage }), handle: handle('ops:nav_players') },
    { id: 'opsPlayer', path: 'players/:id', lazy: async () => ({ Component: (await import('../../features/ops/components/player-page')).PlayerPage }), handle: handle('ops:nav_players') },
    {
      id: 'opsBrand', path: 'brand',
      // The registration field names and pattern messages are the register form's own.
      lazy: async () => { const [m] = await Promise.all([import('../../features/ops/components/brand-page'), loadNamespaces(['register'])]); return { Component: m.BrandPage }; },
      handle: handle('ops:nav_brand'),
    },
    { id: 'opsMerchants', path: 'merchants', lazy: async () => ({ Component: (await import('../../features/ops/components/merchants-page')).MerchantsPage }), handle: handle('ops:nav_merchants') },
    { id: 'opsPromotions', path: 'promotions', lazy: async () => {
      const [m] = await Promise.all([import('../../features/ops/components/promotions-page'), loadNamespaces(['promotions'])]);
      return { Component: m.PromotionsOpsPage };
    }, handle: handle('ops:nav_promotions') },
    { id: 'opsMissions', path: 'missions', lazy: async () => {
      const [m] = await Promise.all([import('../../features/ops/components/missions-page'), loadNamespaces(['missions'])]);
      return { Component: m.MissionsOpsPage };
    }, handle: handle('ops:nav_missions') },
    { id: 'opsContent', path: 'content', lazy: async () => ({ Component: (await import('../../features/ops/components/content-page')).ContentPage }), handle: handle('ops:nav_content') },
    { id: 'opsRg', path: 'rg', lazy: async () => ({ Component: (await import('../../features/ops/components/rg-page')).RgPage }), handle: handle('ops:nav_rg') },
    { id: 'opsPoints', path: 'points', lazy: async () => ({ Component: (await import('../../features/ops/components/points-page')).PointsOpsPage }), handle: handle('ops:nav_points') },
    { id: 'opsEnvelopes', path: 'envelopes', lazy: async () => ({ Component: (await import('../../features/ops/components/envelopes-page')).EnvelopesPage }), handle: handle('ops:nav_envelopes') },
    { id: 'opsOperators', path: 'operators', lazy: async () => ({ Component: (await import('../../features/ops/components/operators-page')).OperatorsPage }), handle: handle('ops:nav_operators') },
    { id: 'opsNotFound', path: '*', lazy: async () => ({ Component: (await import('./ops-index')).OpsNotFound }) },
  ],
};
