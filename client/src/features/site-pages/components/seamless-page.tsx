import { useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { launchCall } from '@portal/contracts/api/vendor';
import { call } from '../../../lib/api';
import { errorMessage } from '../../../lib/field-message';
import { FormMessage } from '../../../ui/form-field';
import './site-pages.css';

/** Whether a launch URL is on this site's origin (only those may be framed: the portal's CSP allows 'self'). */
export function isSameOrigin(url: string, origin = window.location.origin): boolean {
  try {
    return new URL(url, origin).origin === origin;
  } catch {
    return false;
  }
}

/**
 * /seamless?nodeId=<game>: a game page without footer (spec section 2). The game is launched for the
 * signed-in member and shown in the page when it is served by this site (the house games); a
 * provider on another origin cannot be framed, so its game opens in the tab instead.
 */
export function SeamlessPage() {
  const { t } = useTranslation('pages');
  const [search] = useSearchParams();
  const nodeId = search.get('nodeId') ?? search.get('gameCode') ?? '';
  const launch = useQuery({
    queryKey: ['seamless', nodeId],
    queryFn: () => call(launchCall, { body: { nodeId } }),
    enabled: nodeId !== '',
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
  });
  if (!nodeId) {
    return (
      <section className="container site-page" data-testid="seamless-page">
        <header className="page-head">
          <h1>{t('seamless_title')}</h1>
          <p className="muted">{t('seamless_choose')}</p>
        </header>
        <p><Link to="/" className="btn btn--primary">{t('seamless_home')}</Link></p>
      </section>
    );
  }
  const url = launch.data?.url;
  return (
    <section className="seamless-page" data-testid="seamless-page">
      <div className="seamless-bar container">
        <Link to="/" className="btn btn--ghost btn--sm">← {t('seamless_home')}</Link>
        {url && <a className="btn btn--outline btn--sm" href={url}>{t('seamless_full')}</a>}
      </div>
      {launch.error && <div className="container"><FormMessage message={errorMessage(launch.error)} /></div>}
      {launch.isPending && <div className="page-spinner" aria-hidden="true" />}
      {url && (isSameOrigin(url) ? (
        <iframe className="seamless-frame" src={url} title={t('seamless_title')} allow="fullscreen; autoplay" data-testid="seamless-frame" />
      ) : (
        <div className="container site-note" data-testid="seamless-external">
          <p>{t('seamless_external')}</p>
          <p><a className="btn btn--primary" href={url}>{t('seamless_open')}</a></p>
        </div>
      ))}
    </section>
  );
}
