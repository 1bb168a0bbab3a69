import { afterEach, describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { I18nextProvider } from 'react-i18next';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router-dom';
import { i18n } from '../../i18n/i18n';
import { setBreakNote } from '../../lib/break-note';
import { QUERY_KEYS } from '../../lib/query-keys';
import { clearSession, setSessionToken } from '../../lib/session';
import { BreakNotice } from './break-notice';
import { RequireAuth, signedOutPath } from './require-auth';

async function render(lang: 'EN' | 'TY', node: React.ReactNode, path = '/') {
  await i18n.changeLanguage(lang);
  await i18n.loadNamespaces('common');
  const client = new QueryClient();
  client.setQueryData(QUERY_KEYS.whitelabel, { brand: { gmtOffsetMinutes: 480 } });
  return renderToStaticMarkup(
    <QueryClientProvider client={client}>
      <I18nextProvider i18n={i18n}>
        <MemoryRouter initialEntries={[path]}>{node}</MemoryRouter>
      </I18nextProvider>
    </QueryClientProvider>,
  );
}

afterEach(async () => {
  setBreakNote(null);
  clearSession();
  await i18n.changeLanguage('EN');
});

describe('the break a player starts (cooling-off, self-exclusion) signs them out with a word about it', () => {
  it('says which break started, until when (merchant clock) and that they were signed out, in EN and TY', async () => {
    setBreakNote({ kind: 'cooling', endsAt: '2026-12-06T13:31:00.000Z' });
    const en = await render('EN', <BreakNotice />);
    expect(en).toContain('data-testid="rg-break-notice"');
    expect(en).toContain('Your cooling-off has started and lasts until 2026-12-06 21:31.');
    expect(en).toContain('signed out on every device');
    const ty = await render('TY', <BreakNotice />);
    expect(ty).toContain('Nagsimula na ang iyong pahinga (cooling-off) at tatagal ito hanggang 2026-12-06 21:31.');
    expect(ty).toContain('Na-sign out ka na sa lahat ng device');
    setBreakNote({ kind: 'self', endsAt: null });
    expect(await render('EN', <BreakNotice />)).toContain('Your self-exclusion has started.');
  });

  it('shows nothing without a break or while signed in', async () => {
    expect(await render('EN', <BreakNotice />)).toBe('');
    setBreakNote({ kind: 'cooling', endsAt: null });
    setSessionToken('t0k3n');
    expect(await render('EN', <BreakNotice />)).toBe('');
  });

  it('a member page signed out by the break goes home (the notice), not to the sign-in form; otherwise to /login', async () => {
    expect(signedOutPath(false)).toBe('/login');
    expect(signedOutPath(true)).toBe('/');
    // the guard renders nothing of the page without a session, break or not
    const page = <RequireAuth><p>member</p></RequireAuth>;
    expect(await render('EN', page, '/member')).toBe('');
    setBreakNote({ kind: 'cooling', endsAt: null });
    expect(await render('EN', page, '/member')).toBe('');
    setSessionToken('t0k3n');
    expect(await render('EN', page, '/member')).toBe('<p>member</p>');
  });
});
