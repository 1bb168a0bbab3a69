import { useTranslation } from 'react-i18next';
import { OIDC_PATHS } from '@portal/contracts/api/auth';
import { useOidcConfig } from './api/get-oidc-config';
import { clearOidcError, useOidcError } from './use-oidc-handoff';
import './social-sign-in.css';

/** Where the button sends the browser: the gateway starts the provider's sign-in and brings it back here. */
export function oidcStartHref(location: Pick<Location, 'pathname' | 'search'>): string {
  return `${OIDC_PATHS.start}?returnTo=${encodeURIComponent(location.pathname + location.search)}`;
}

/** "Continue with {provider}", shown only when the gateway has a provider configured (the identity step replaces the whole login popup: SocialIdentityPopup). */
export function SocialSignIn() {
  const { t } = useTranslation('social');
  const { data } = useOidcConfig();
  const error = useOidcError();
  if (!data?.enabled && !error) return null;
  return (
    <div className="social-sign-in" data-testid="social-sign-in">
      {error && (
        <p className="notice-box social-sign-in__error" role="alert">
          {t('failed')} {t(`common:error_${error}`)}
        </p>
      )}
      {data?.enabled && (
        <>
          <div className="social-sign-in__or" aria-hidden="true">
            <span>{t('or')}</span>
          </div>
          <button
            type="button"
            className="btn btn--outline btn--block"
            data-testid="social-sign-in-button"
            onClick={() => {
              clearOidcError();
              window.location.assign(oidcStartHref(window.location));
            }}
          >
            {t('continue_with', { provider: data.providerName })}
          </button>
        </>
      )}
    </div>
  );
}
