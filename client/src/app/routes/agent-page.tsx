import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { LoginForm } from '../../features/auth/components/login-form';
import { useLogout } from '../../features/auth/components/use-logout';
import { useAuth } from '../../features/auth/hooks/use-auth';
import { brandClock, gmtLabel } from '../../lib/brand-clock';
import { openPopup } from '../../lib/popups';
import { useWhitelabel } from '../../lib/whitelabel';
import { Logo } from '../layout/header';
import { AgentCentre } from '../../features/agents/components/agent-centre';
import { AgentApplication } from '../../features/agents/components/agent-application';
import { isGatedItem, resolveItem, type AgentOfficeItem } from '../../features/agents/components/office-items';
import { LanguageSelect } from '../layout/language-select';
import { ThemeToggle } from '../layout/theme-toggle';
import { useAgentCentreSlots, useAgentItemFlagsState } from './agent-centre-slots';
import '../../features/auth/components/auth.css';
import './agent-page.css';

const PERKS = ['agent_perk_commission', 'agent_perk_team', 'agent_perk_support'] as const;

/** /agent: the agent programme, consultation hours and the agent login (agents only). */
export function AgentLandingPage() {
  const { t } = useTranslation('auth');
  const { isLogin, isAgent, isMemberLoading } = useAuth();
  // Decided once: a login on this page keeps its form mounted until it has gone to /agentHome. A
  // restored session decides once its member info says whether it is an agent's (null until then: a
  // signed-in agent opening /agent in a new tab was shown the login form).
  const [isSignedInAgent, setSignedInAgent] = useState<boolean | null>(() => (isLogin && isMemberLoading ? null : isLogin && isAgent));
  useEffect(() => {
    if (isSignedInAgent === null && !isMemberLoading) setSignedInAgent(isLogin && isAgent);
  }, [isSignedInAgent, isMemberLoading, isLogin, isAgent]);
  return (
    <div className="agent-page">
      <header className="agent-page__head container">
        <Logo />
        <div className="agent-home__meta">
          <LanguageSelect />
          <Link to="/" className="btn btn--ghost btn--sm">
            {t('common:back_home')}
          </Link>
        </div>
      </header>
      <main className="agent-landing container">
        <section className="agent-landing__pitch">
          <span className="agent-landing__kicker">{t('agent_kicker')}</span>
          <h1 className="agent-landing__title">{t('agent_title')}</h1>
          <p className="agent-landing__lead">{t('agent_lead')}</p>
          <ul className="agent-landing__perks">
            {PERKS.map((k) => (
              <li key={k}>
                <strong>{t(`${k}_title`)}</strong>
                <span>{t(`${k}_text`)}</span>
              </li>
            ))}
          </ul>
          <div className="agent-landing__hours" data-testid="agent-hours">
            <span className="agent-landing__hours-label">{t('agent_hours_label')}</span>
            <span>{t('agent_hours')}</span>
          </div>
          {/* The affiliate application (spec): a player asks to become an agent here. */}
          {isSignedInAgent === false && <AgentApplication />}
        </section>
        <section className="agent-landing__login" aria-labelledby="agent-login-title">
          <h2 id="agent-login-title" className="agent-landing__login-title">
            {t('agent_login_title')}
          </h2>
          {isSignedInAgent === null ? (
            <p className="muted" role="status">{t('common:loading')}</p>
          ) : isSignedInAgent ? (
            <div className="auth-form">
              <p className="muted">{t('agent_signed_in')}</p>
              <Link to="/agentHome" className="btn btn--primary btn--block btn--lg" data-testid="agent-centre-link">
                {t('agent_centre')}
              </Link>
              <button type="button" className="btn btn--ghost btn--block" onClick={() => openPopup('changePassModal')} data-testid="agent-change-password">
                {t('change_password')}
              </button>
            </div>
          ) : (
            <LoginForm agentLogin />
          )}
        </section>
      </main>
    </div>
  );
}

function useNow(intervalMs = 1000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const id = window.setInterval(() => setNow(Date.now()), intervalMs);
    return () => window.clearInterval(id);
  }, [intervalMs]);
  return now;
}

function BrandClock({ offsetMinutes }: { offsetMinutes: number }) {
  const now = useNow();
  return (
    <span className="agent-home__clock" data-testid="agent-clock">
      <span className="agent-home__gmt">{gmtLabel(offsetMinutes)}</span>
      <time dateTime={new Date(now).toISOString()}>{brandClock(now, offsetMinutes)}</time>
    </span>
  );
}

/** /agentHome (agents only, see RequireAgent): the back office. Header with GMT offset, live clock, name, theme and sign out; left menu of sixteen items; `?item=` names the item (default team overview). */
export function AgentHomePage() {
  const { t } = useTranslation('auth');
  const { data } = useWhitelabel();
  const { member } = useAuth();
  const { requestLogout, dialog } = useLogout('/agent');
  const [search, setSearch] = useSearchParams();
  const { flags, isPending: flagsPending } = useAgentItemFlagsState();
  const slots = useAgentCentreSlots();
  const item = resolveItem(search.get('item'), 'page', flags);
  // A link to a contract-gated item (?item=agentDailyWages2) waits for the flags instead of showing team
  // overview until they arrive (the page used to switch from one to the other half a second later).
  const waitForFlags = flagsPending && isGatedItem(search.get('item'));
  const setItem = (id: AgentOfficeItem) => setSearch({ item: id }, { replace: false });
  // An item that is not (or no longer) open to this agent (its contract ended meanwhile): the address
  // follows what is shown instead of naming the item that vanished.
  const asked = search.get('item');
  const stale = asked !== null && !flagsPending && asked !== item;
  useEffect(() => {
    if (stale) setSearch({ item }, { replace: true });
  }, [stale, item, setSearch]);
  return (
    <div className="agent-page">
      <header className="agent-home__head">
        <div className="container agent-home__bar">
          <Logo />
          <div className="agent-home__meta">
            {data && <BrandClock offsetMinutes={data.brand.gmtOffsetMinutes} />}
            <span className="agent-home__name" data-testid="agent-name">
              {member ? (member.nickname ?? member.account) : ''}
            </span>
            <LanguageSelect />
            <ThemeToggle />
            <button type="button" className="btn btn--ghost btn--sm" onClick={requestLogout} data-testid="agent-logout">
              {t('sign_out')}
            </button>
          </div>
        </div>
      </header>
      <main className="container agent-home__main">
        {waitForFlags ? <div className="page-spinner" role="progressbar" aria-busy="true" data-testid="ao-loading" /> : <AgentCentre variant="page" item={item} onItem={setItem} flags={flags} slots={slots} />}
      </main>
      {dialog}
    </div>
  );
}
