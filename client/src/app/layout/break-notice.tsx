import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { setBreakNote, useBreakNote } from '../../lib/break-note';
import { useIsLoggedIn } from '../../lib/session';
import { useDateTime } from '../../lib/use-money';

/**
 * Said once a player's own cooling-off or self-exclusion has started (lib/break-note): the break signed
 * them out everywhere, when it ends, and that they may sign in again to withdraw. Signed in again, the
 * restricted-session banner (ExcludedBanner) takes over and the note is dropped. Closed by the player.
 */
export function BreakNotice() {
  const { t } = useTranslation('common');
  const dateTime = useDateTime();
  const note = useBreakNote();
  const isLoggedIn = useIsLoggedIn();
  // Signed in again after the break started: the restricted-session banner says the rest.
  const wasLoggedIn = useRef(isLoggedIn);
  useEffect(() => {
    if (isLoggedIn && !wasLoggedIn.current && note) setBreakNote(null);
    wasLoggedIn.current = isLoggedIn;
  }, [isLoggedIn, note]);
  if (!note || isLoggedIn) return null;
  const kind = t(note.kind === 'self' ? 'rg_break_kind_self' : 'rg_break_kind_cooling');
  return (
    <div className="rg-banner" role="status" data-testid="rg-break-notice">
      <strong>{note.endsAt ? t('rg_break_started_until', { kind, when: dateTime(note.endsAt) }) : t('rg_break_started', { kind })}</strong>{' '}
      <span>{t('rg_break_signed_out')}</span>{' '}
      <button type="button" className="link-btn" onClick={() => setBreakNote(null)} data-testid="rg-break-notice-close">
        {t('rg_break_close')}
      </button>
    </div>
  );
}
