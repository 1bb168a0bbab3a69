import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { Logo } from '../layout/header';
import { ComingSoonPage } from './coming-soon-page';

/** /agent and /agentHome: shown alone, with a way back to the portal. */
export function AgentPage({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation('common');
  return (
    <div className="agent-page">
      <header className="agent-page__head container">
        <Logo />
        <Link to="/" className="btn btn--ghost btn--sm">
          {t('back_home')}
        </Link>
      </header>
      <ComingSoonPage titleKey={titleKey} />
    </div>
  );
}
