import { useCallback, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { TGame } from '@portal/contracts/api/games';
import type { GameCardLabels } from '../../../ui/game-card';
import { Modal } from '../../../ui/modal';
import { useIsLoggedIn } from '../../../lib/session';
import { openPopup } from '../../../lib/popups';
import { useModule } from '../../../lib/whitelabel';
import { useLoginFlags } from '../../../lib/login-state';

export type GameActions = {
  labels: GameCardLabels;
  onPlay: (game: TGame) => void;
  onTrial: ((game: TGame) => void) | undefined;
  onToggleFavourite: (game: TGame) => void;
  favouriteDisabledHint: string;
  /** The notice dialog; render it once on the page. */
  notice: ReactNode;
};

/**
 * Game card wiring for the home page. Launch, free trial and favourites arrive in a
 * later issue, so: a guest gets the login popup (spec: the launch stops there); a
 * logged-in player is told plainly that launching is not available yet. The favourite
 * toggle stays inert with a tooltip saying why.
 */
export function useGameActions(): GameActions {
  const { t } = useTranslation('home');
  const isLoggedIn = useIsLoggedIn();
  const isFreePlayOn = useModule('FREEPLAY3');
  const { isTrial } = useLoginFlags();
  const [notice, setNotice] = useState<TGame | null>(null);
  const [isTrialNoticeOpen, setTrialNoticeOpen] = useState(false);

  // Spec section 4, game launch: a guest gets the login popup and a trial user the
  // in_need_true_account dialog; either way the launch stops there.
  const requireLogin = useCallback(
    (game: TGame) => {
      if (!isLoggedIn) openPopup('loginPopupModal');
      else if (isTrial) setTrialNoticeOpen(true);
      else setNotice(game);
    },
    [isLoggedIn, isTrial],
  );

  const labels = useMemo<GameCardLabels>(
    () => ({
      playNow: t('game.playNow'),
      freeTrial: t('game.freeTrial'),
      addFavourite: t('game.addFavourite'),
      removeFavourite: t('game.removeFavourite'),
      maintenance: t('game.maintenance'),
    }),
    [t],
  );

  return {
    labels,
    onPlay: requireLogin,
    onTrial: isFreePlayOn ? requireLogin : undefined,
    onToggleFavourite: () => {},
    favouriteDisabledHint: isLoggedIn ? t('game.favouriteSoon') : t('game.favouriteLogin'),
    notice: (
      <>
        <Modal name="gameLaunchNotice" open={notice !== null} onClose={() => setNotice(null)} title={notice?.gameName} width={360} height={160}>
          <p className="home-notice-text">{t('game.launchSoon')}</p>
        </Modal>
        <Modal name="in_need_true_account" open={isTrialNoticeOpen} onClose={() => setTrialNoticeOpen(false)} showClose={false} width={340} height={160}>
          <div className="auth-dialog" role="alertdialog" data-testid="trial-launch-notice">
            <span className="auth-dialog__icon" aria-hidden="true">
              i
            </span>
            <p className="home-notice-text">{t('game.trialRequired')}</p>
            <button type="button" className="btn btn--primary btn--block" onClick={() => setTrialNoticeOpen(false)}>
              {t('game.trialConfirm')}
            </button>
          </div>
        </Modal>
      </>
    ),
  };
}
