import { useEffect } from 'react';
import { OIDC_ERROR_PARAM, OIDC_HANDOFF_PARAM } from '@portal/contracts/api/auth';
import { ErrorCode } from '@portal/contracts/api/errors';
import { isApiError } from '../../lib/api';
import { openPopup } from '../../lib/popups';
import { setSessionToken } from '../../lib/session';
import { createStore, useStore } from '../../lib/store';
import { exchangeOidcCode } from './api/exchange-oidc-code';

/** The last social sign-in failure, as an ErrorCode; shown (translated) beside the sign-in button. */
const oidcErrorStore = createStore<ErrorCode | null>(null);

export function useOidcError(): ErrorCode | null {
  return useStore(oidcErrorStore);
}

export function clearOidcError(): void {
  oidcErrorStore.set(null);
}

/**
 * The handoff code of a sign-in waiting for the identity step (the market asks the full name and
 * birth date before an account is usable: IDENTITY_REQUIRED); null when none.
 */
const identityCodeStore = createStore<string | null>(null);

export function useOidcIdentityCode(): string | null {
  return useStore(identityCodeStore);
}

/** The identity step ended (passed, or the code was used up): back to the ordinary sign-in. */
export function endOidcIdentity(error: ErrorCode | null = null): void {
  identityCodeStore.set(null);
  if (error) fail(error);
}

const KNOWN = new Set<string>(Object.values(ErrorCode));
const asErrorCode = (code: string | null | undefined): ErrorCode => (code && KNOWN.has(code) ? (code as ErrorCode) : ErrorCode.OIDC_FAILED);

/** What the gateway's callback left in the address: a handoff code or an error code, and the address without them. */
export function readHandoff(href: string): { code: string | null; error: ErrorCode | null; cleanUrl: string } {
  const url = new URL(href);
  const code = url.searchParams.get(OIDC_HANDOFF_PARAM);
  const error = url.searchParams.get(OIDC_ERROR_PARAM);
  url.searchParams.delete(OIDC_HANDOFF_PARAM);
  url.searchParams.delete(OIDC_ERROR_PARAM);
  return { code: code || null, error: error === null ? null : asErrorCode(error), cleanUrl: url.pathname + url.search + url.hash };
}

export { asErrorCode };

/** A code is exchanged once, even when effects run twice (StrictMode) or the app mounts again. */
const exchanged = new Set<string>();

function fail(code: ErrorCode) {
  oidcErrorStore.set(code);
  openPopup('loginPopupModal');
}

/**
 * Mounted once in the app: after a social sign-in the page opens with `?oidc=CODE`. The code is
 * traded for a session (the token itself never travels in a URL), then removed from the address;
 * `?oidcError=CODE` opens the login popup with the translated error. IDENTITY_REQUIRED opens it on
 * the identity step (SocialIdentityStep) with the same code.
 */
export function useOidcHandoff(): { error: ErrorCode | null } {
  useEffect(() => {
    const { code, error, cleanUrl } = readHandoff(window.location.href);
    if (!code && !error) return;
    window.history.replaceState(window.history.state, '', cleanUrl);
    if (error || !code) {
      fail(error ?? ErrorCode.OIDC_FAILED);
      return;
    }
    if (exchanged.has(code)) return;
    exchanged.add(code);
    clearOidcError();
    exchangeOidcCode(code)
      .then((login) => setSessionToken(login.token))
      .catch((e: unknown) => {
        if (isApiError(e) && e.code === ErrorCode.IDENTITY_REQUIRED) {
          identityCodeStore.set(code);
          openPopup('loginPopupModal');
          return;
        }
        fail(asErrorCode(isApiError(e) ? e.code : null));
      });
  }, []);
  return { error: useOidcError() };
}
