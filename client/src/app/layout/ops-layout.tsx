import { NavLink, Outlet } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { OperatorBadge, OpsGate, SignOutButton } from '../../features/ops/components/ops-gate';
import { LanguageSelect } from './language-select';
import { RouteEffects } from './route-effects';
import { ThemeToggle } from './theme-toggle';

const NAV = [
  { to: '/ops/deposits', key: 'nav_deposits', id: 'deposits' },
  { to: '/ops/withdrawals', key: 'nav_withdrawals', id: 'withdrawals' },
  { to: '/ops/adjustments', key: 'nav_adjustments', id: 'adjustments' },
  { to: '/ops/agents', key: 'nav_agents', id: 'agents' },
  { to: '/ops/agent-contracts', key: 'nav_agent_contracts', id: 'agent-contracts' },
  { to: '/ops/agent-disputes', key: 'nav_agent_disputes', id: 'agent-disputes' },
  { to: '/ops/audit', key: 'nav_audit', id: 'audit' },
  { to: '/ops/settings', key: 'nav_settings', id: 'settings' },
] as const;

/** /ops renders the back office alone: no player header, footer, side menu or popups. */
export function OpsLayout() {
  const { t } = useTranslation('ops');
  return (
    <div className="shell shell--ops ops-shell">
      <RouteEffects />
      <header className="ops-top">
        <span className="ops-top__brand">{t('area_name')}</span>
        <div className="ops-top__tools">
          <LanguageSelect />
          <ThemeToggle />
        </div>
      </header>
      <OpsGate>
        <nav className="ops-nav" aria-label={t('area_name')}>
          {NAV.map((n) => (
            <NavLink key={n.id} to={n.to} className={({ isActive }) => `ops-nav__link${isActive ? ' is-active' : ''}`} data-testid={`ops-nav-${n.id}`}>
              {t(n.key)}
            </NavLink>
          ))}
          <span className="ops-nav__spacer" />
          <OperatorBadge />
          <SignOutButton />
        </nav>
        <main className="ops-main">
          <Outlet />
        </main>
      </OpsGate>
    </div>
  );
}
