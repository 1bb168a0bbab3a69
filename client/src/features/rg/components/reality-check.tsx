import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMoney } from '../../../lib/use-money';
import { Modal } from '../../../ui/modal';
import { useRgState } from '../api/rg';

/** The next reminder after `now`: session start + k * every (k >= 1), in ms since the epoch. */
export function nextReminderAt(startedAt: number, everyMinutes: number, now: number): number {
  const every = everyMinutes * 60_000;
  const k = Math.max(1, Math.floor((now - startedAt) / every) + 1);
  return startedAt + k * every;
}

/**
 * Reality check: every N minutes the player chose (counted from the server's session start), a
 * reminder of the time played and the net result (fetched from the server at that moment), with a
 * way to stop playing (sign out) or continue. The app layer passes `onStop` (its sign-out).
 */
export function RealityCheck({ onStop }: { onStop: () => void }) {
  const { t } = useTranslation('rg');
  const money = useMoney();
  const state = useRgState();
  const [open, setOpen] = useState(false);
  const every = state.data?.realityCheckMinutes ?? null;
  const started = state.data?.sessionStartedAt ? Date.parse(state.data.sessionStartedAt) : null;
  const { refetch } = state;
  useEffect(() => {
    if (every === null || started === null || open) return;
    const timer = window.setTimeout(() => {
      void refetch().then(() => setOpen(true));
    }, Math.max(0, nextReminderAt(started, every, Date.now()) - Date.now()));
    return () => window.clearTimeout(timer);
  }, [every, started, open, refetch]);
  // The session time limit the player set: told 5 minutes before it ends (or at once when less is left),
  // once per session; at the end the server closes the session.
  const limit = state.data?.sessionLimitMinutes ?? null;
  // `warned`: the session end (ms) told about; `dismissed`: the one whose notice was closed (not told again).
  const [warned, setWarned] = useState<number | null>(null);
  const [dismissed, setDismissed] = useState<number | null>(null);
  const endAt = limit === null || started === null ? null : started + limit * 60_000;
  useEffect(() => {
    if (endAt === null || warned === endAt || dismissed === endAt || Date.now() >= endAt) return;
    const timer = window.setTimeout(() => setWarned(Date.now() < endAt ? endAt : null), Math.max(0, endAt - 5 * 60_000 - Date.now()));
    return () => window.clearTimeout(timer);
  }, [endAt, warned, dismissed]);
  if (endAt !== null && warned === endAt && dismissed !== endAt && !open) {
    const close = () => setDismissed(endAt);
    return (
      <Modal name="sessionLimit" open onClose={close} title={t('rg_sl_title')}>
        <div data-testid="rg-session-limit">
          <p>{t('rg_sl_text', { count: Math.max(1, Math.ceil((endAt - Date.now()) / 60_000)) })}</p>
          <button type="button" className="btn btn--primary" onClick={close} data-testid="rg-sl-ok">{t('rg_sl_ok')}</button>
        </div>
      </Modal>
    );
  }
  if (!open || started === null) return null;
  const minutes = Math.floor((Date.now() - started) / 60_000);
  return (
    <Modal name="realityCheck" open={open} onClose={() => setOpen(false)} title={t('rg_rc_title')}>
      <div data-testid="rg-reality-check">
        <p>{t('rg_rc_text', { minutes, net: money(state.data?.sessionNet ?? 0) })}</p>
        <button type="button" className="btn btn--primary" onClick={() => setOpen(false)} data-testid="rg-rc-continue">{t('rg_rc_continue')}</button>{' '}
        <button type="button" className="btn btn--outline" onClick={() => { setOpen(false); onStop(); }} data-testid="rg-rc-stop">{t('rg_rc_stop')}</button>
      </div>
    </Modal>
  );
}
