import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import type { TGame } from '@portal/contracts/api/games';
import { GameCard } from '../../../ui/game-card';
import { VirtualGrid } from './virtual-grid';
import { useCardActions } from './use-card-actions';

type GameGridProps = {
  games: readonly TGame[];
  hasMore: boolean;
  isLoadingMore: boolean;
  onLoadMore: () => void;
  direct?: boolean;
};

/** Games in a windowed grid with infinite scroll (and a button as a fallback). */
export function GameGrid({ games, hasMore, isLoadingMore, onLoadMore, direct }: GameGridProps) {
  const { t } = useTranslation('games');
  const actions = useCardActions({ direct });
  const onEnd = useCallback(() => {
    if (hasMore && !isLoadingMore) onLoadMore();
  }, [hasMore, isLoadingMore, onLoadMore]);
  return (
    <>
      <VirtualGrid
        testId="game-centre-grid"
        items={games}
        itemKey={(g) => g.nodeId}
        minColumnWidth={150}
        gap={14}
        rowHeight={(w) => w + 58}
        onEndReached={onEnd}
        renderItem={(game) => (
          <GameCard
            game={game}
            labels={actions.labels}
            onPlay={actions.onPlay}
            onTrial={actions.onTrial}
            onToggleFavourite={actions.favourites.toggle}
            isFavourite={actions.favourites.ids.has(game.nodeId)}
            favouriteDisabledHint={actions.favouriteDisabledHint}
            simulatedLabel={actions.simulatedLabel(game)}
          />
        )}
      />
      <div className="game-centre__more">
        {isLoadingMore ? (
          <span className="game-centre__muted">{t('centre.loading')}</span>
        ) : hasMore ? (
          <button type="button" className="btn btn--ghost" onClick={onLoadMore} data-testid="game-centre-load-more">{t('centre.loadMore')}</button>
        ) : games.length > 0 ? (
          <span className="game-centre__muted">{t('centre.end')}</span>
        ) : null}
      </div>
    </>
  );
}
