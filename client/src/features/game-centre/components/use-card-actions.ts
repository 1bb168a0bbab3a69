import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { TGame } from '@portal/contracts/api/games';
import type { GameCardLabels } from '../../../ui/game-card';
import { requestLaunch, useFavourites } from '../../../lib/game-launch';
import { useModule } from '../../../lib/whitelabel';
import { useSimulatedVendors } from '../../games/api/get-game-vendors';

/** Card wiring for the game centre: launch through the launch machine, shared favourites. */
export function useCardActions(options: { direct?: boolean } = {}) {
  const { t } = useTranslation('games');
  const isFreePlayOn = useModule('FREEPLAY3');
  const favourites = useFavourites();
  const { direct } = options;
  const simulated = useSimulatedVendors();
  const labels = useMemo<GameCardLabels>(
    () => ({
      playNow: t('card.playNow'),
      freeTrial: t('card.freeTrial'),
      addFavourite: t('card.addFavourite'),
      removeFavourite: t('card.removeFavourite'),
      maintenance: t('card.maintenance'),
    }),
    [t],
  );
  return {
    labels,
    favourites,
    onPlay: (game: TGame) => requestLaunch({ kind: 'game', game, ...(direct ? { direct } : {}) }),
    onTrial: isFreePlayOn ? (game: TGame) => requestLaunch({ kind: 'game', game, freePlay: true, ...(direct ? { direct } : {}) }) : undefined,
    favouriteDisabledHint: favourites.isEnabled ? undefined : t('card.favouriteLogin'),
    simulatedLabel: (game: TGame) => (game.isGame !== 'VASSALAGE' && simulated.has(game.vassalage) ? t('card.simulated') : undefined),
  };
}
