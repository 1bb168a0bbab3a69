import { useTranslation } from 'react-i18next';
import { LIMITS } from '@portal/contracts/domain/constants';
import { GameCard } from '../../../ui/game-card';
import { useHotGames } from '../api/get-hot-games';
import type { GameActions } from './game-actions';
import { Icon } from './icons';
import { SectionTitle } from './section-title';

export function HotGames({ actions }: { actions: GameActions }) {
  const { t } = useTranslation('home');
  const { data: games, isPending } = useHotGames();
  if (!isPending && (!games || games.length === 0)) return null;

  return (
    <section className="home-section" data-testid="home-hot-games">
      <SectionTitle icon={<Icon name="HOT" />} title={t('hot.title')} tone="hot" />
      <div className="home-hot-grid">
        {isPending
          ? Array.from({ length: LIMITS.HOT_GAMES_HOME }, (_, i) => <div key={i} className="home-card-skeleton skeleton" />)
          : games.map((game) => (
              <GameCard
                key={game.nodeId}
                game={game}
                size="lg"
                labels={actions.labels}
                onPlay={actions.onPlay}
                onTrial={actions.onTrial}
                onToggleFavourite={actions.onToggleFavourite}
                favouriteDisabledHint={actions.favouriteDisabledHint}
                isFavourite={actions.favouriteIds.has(game.nodeId)}
                simulatedLabel={actions.simulatedLabel(game)}
              />
            ))}
      </div>
    </section>
  );
}
