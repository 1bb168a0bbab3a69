import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { restoreSession } from './lib/session-keep';
import { startBootCalls } from './lib/system-calls';
import { startHomeCalls } from './features/home/api/home-calls';
import { storedLanguage } from './i18n/languages';
import { DEFAULT_LANGUAGE } from '@portal/contracts/domain/constants';
import { reloadFailedStylesheets } from './lib/retry-import';
import './app/styles.css';

// An agent's invitation or a referral link: its codes are kept for the visit (a closed register popup lost
// them). Loaded only for such a link: a first visit's script stays as small as it was. The test is
// ARRIVAL_LINK of arrival-codes.ts written out (an import costs the first load bytes; arrival-codes.test
// checks the two are the same).
if (/[?&](?:affiliateCode|referralCode|code)=/.test(window.location.search)) {
  void import('./features/register/lib/arrival-codes').then((m) => m.arrivalCodes(window.location.search, window.location.pathname));
}
// A page's stylesheet that failed to load (offline) is fetched again with its chunk's retry (retry-import.ts).
reloadFailedStylesheets();
const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root');
// The session first (a reload's token comes back from the gateway), then the app, whose modules
// read the login state when they load. The texts of the current language load meanwhile.
const textsReady = import('./i18n/i18n').then((m) => m.i18nReady);
// The status and brand calls need no session: they go out now, beside it (app/provider.tsx adopts them).
startBootCalls();
await restoreSession();
if (window.location.pathname.startsWith('/ops')) await (await import('./features/ops/lib/ops-session-keep')).restoreOpsSession();
// On the home page (and the popups over it), its chunk loads beside the app's, not after the first render,
// and its first reads (announcements, hot games: the largest paint waits for them) go out now, with the
// session restored (a member's announcements differ) and in the language i18n.ts starts in.
const isHome = /^\/(?:index(?:\.html)?|home|login|register|help)?\/?$/.test(window.location.pathname);
if (isHome) startHomeCalls(storedLanguage() ?? DEFAULT_LANGUAGE);
const [{ App }] = await Promise.all([import('./app/app'), textsReady, isHome ? import('./features/home/components/home-page').catch(() => undefined) : undefined]);
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
