import { useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { TGame } from '@portal/contracts/api/games';
import type { GameCardLabels } from '../../../ui/game-card';
import { useModule } from '../../../lib/whitelabel';
import { requestLaunch, useFavourites } from '../../../lib/game-launch';
import { useSimulatedVendors } from '../../games/api/get-game-vendors';

export type GameActions = {
  labels: GameCardLabels;
  onPlay: (game: TGame) => void;
  onTrial: ((game: TGame) => void) | undefined;
  onToggleFavourite: (game: TGame) => void;
  favouriteIds: ReadonlySet<string>;
  /** Set for guests: the heart is disabled with this tooltip. */
  favouriteDisabledHint: string | undefined;
  /** Dialogs now live in the launch host; kept so callers need not change. */
  notice: ReactNode;
  /** "Simulated demo" for a simulated vendor's game, else undefined. */
  simulatedLabel: (game: TGame) => string | undefined;
};

/**
 * Game card wiring for the home page: play and free trial go through the shared launch request
 * (the launch machine decides: login popup, trial dialog, routing or the game itself); the heart
 * uses the shared favourites (disabled with a tooltip for guests).
 */
export function useGameActions(): GameActions {
  const { t } = useTranslation('home');
  const isFreePlayOn = useModule('FREEPLAY3');
  const favourites = useFavourites();
  const simulated = useSimulatedVendors();

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
    onPlay: (game) => requestLaunch({ kind: 'game', game }),
    onTrial: isFreePlayOn ? (game) => requestLaunch({ kind: 'game', game, freePlay: true }) : undefined,
    onToggleFavourite: favourites.toggle,
    favouriteIds: favourites.ids,
    favouriteDisabledHint: favourites.isEnabled ? undefined : t('game.favouriteLogin'),
    notice: null,
    simulatedLabel: (game) => (game.isGame !== 'VASSALAGE' && simulated.has(game.vassalage) ? t('game.simulated') : undefined),
  };
}
