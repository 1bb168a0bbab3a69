import { useTranslation } from 'react-i18next';

/** The path from the caller down to the team being looked at; each step but the last goes back up. */
export function TeamBreadcrumb({ path, onPick, testId }: { path: { id: number; account: string }[]; onPick: (id: number, index: number) => void; testId: string }) {
  const { t } = useTranslation('agent-office');
  if (path.length === 0) return null;
  return (
    <nav className="ao-crumbs" aria-label={t('breadcrumb')} data-testid={testId}>
      {path.map((p, i) => (
        <span key={p.id} className="ao-crumbs__step">
          {i > 0 && <span aria-hidden="true">›</span>}
          {i < path.length - 1 ? (
            <button type="button" className="ao-crumbs__link" onClick={() => onPick(p.id, i)}>
              {i === 0 ? t('my_team') : p.account}
            </button>
          ) : (
            <strong aria-current="page">{i === 0 ? t('my_team') : p.account}</strong>
          )}
        </span>
      ))}
    </nav>
  );
}
