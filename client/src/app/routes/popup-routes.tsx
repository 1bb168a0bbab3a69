import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { closePopup, openPopup, usePopup } from '../../lib/popups';
import { useIsLoggedIn } from '../../lib/session';
import { useWhitelabel } from '../../lib/whitelabel';
import { HomeRoute } from './home-route';

/** /login: home page with the login popup open, then the address goes back to /. */
export function LoginRoute() {
  const navigate = useNavigate();
  // Signed in already (a bookmark, the back button): nothing to log in to, the home page.
  const isSignedIn = useRef(useIsLoggedIn()).current;
  useEffect(() => {
    if (!isSignedIn) openPopup('loginPopupModal');
    navigate('/', { replace: true });
  }, [navigate, isSignedIn]);
  return <HomeRoute />;
}

/**
 * /register: home page with the register popup (when the merchant allows direct registration). A
 * member signed in on arrival goes to the home page instead (the form showed over their balance); one
 * who registers here stays signed in with the popup's last step (the limits offer) open. When the popup
 * closes (registered or not) the address goes back to / (spec: registration closes the modal and goes
 * to /; the address stayed /register).
 */
export function RegisterRoute() {
  const { data } = useWhitelabel();
  const navigate = useNavigate();
  const popup = usePopup();
  const wasOpen = useRef(false);
  const isSignedIn = useRef(useIsLoggedIn()).current;
  const canRegister = (data?.modules.DIRECTREG3 ?? false) && !isSignedIn;
  useEffect(() => {
    if (isSignedIn) navigate('/', { replace: true });
  }, [navigate, isSignedIn]);
  useEffect(() => {
    if (!canRegister) return;
    openPopup('registerModal');
    return closePopup;
  }, [canRegister]);
  useEffect(() => {
    if (popup?.name === 'registerModal') wasOpen.current = true;
    else if (wasOpen.current) navigate('/', { replace: true });
  }, [popup, navigate]);
  return <HomeRoute />;
}

/** /help: the help popup over the home page, optionally at #anchor; closing it goes to /. */
export function HelpRoute() {
  const { hash } = useLocation();
  const navigate = useNavigate();
  const popup = usePopup();
  const wasOpen = useRef(false);
  const anchor = hash ? decodeURIComponent(hash.slice(1)) : undefined;

  useEffect(() => {
    openPopup('helpModal', anchor ? { anchor } : {});
  }, [anchor]);

  useEffect(() => {
    if (popup?.name === 'helpModal') wasOpen.current = true;
    else if (wasOpen.current) navigate('/', { replace: true });
  }, [popup, navigate]);

  return <HomeRoute />;
}
