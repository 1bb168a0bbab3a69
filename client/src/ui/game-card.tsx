import { useState } from 'react';
import type { TGame } from '@portal/contracts/api/games';
import { useVendorName } from '../lib/vendor-names';
import './game-card.css';

export type GameCardLabels = {
  playNow: string;
  freeTrial: string;
  addFavourite: string;
  removeFavourite: string;
  maintenance: string;
};

type GameCardProps = {
  game: TGame;
  labels: GameCardLabels;
  onPlay: (game: TGame) => void;
  /** Without it the free-trial button is not shown (e.g. free play is switched off). */
  onTrial?: (game: TGame) => void;
  onToggleFavourite: (game: TGame) => void;
  isFavourite?: boolean;
  /** When set the favourite toggle is inert and shows this text as its tooltip (e.g. guests). */
  favouriteDisabledHint?: string;
  size?: 'md' | 'lg';
  /** Set for a simulated vendor's game: shown as a badge on the tile ("Simulated demo"). */
  simulatedLabel?: string;
};

export function GameCard({
  game, labels, onPlay, onTrial, onToggleFavourite, isFavourite = false, favouriteDisabledHint, size = 'md', simulatedLabel,
}: GameCardProps) {
  const [isImageBroken, setImageBroken] = useState(false);
  const vendorName = useVendorName();
  const isFavouriteDisabled = favouriteDisabledHint !== undefined;
  const favouriteLabel = isFavourite ? labels.removeFavourite : labels.addFavourite;

  return (
    <article className={`game-card game-card--${size}${game.maintenance ? ' is-maintenance' : ''}`} data-testid="game-card">
      <div className="game-card__media">
        {game.iconUrl && !isImageBroken ? (
          <img src={game.iconUrl} alt="" loading="lazy" decoding="async" onError={() => setImageBroken(true)} />
        ) : (
          <div className="game-card__placeholder" aria-hidden="true">{game.gameName.slice(0, 2)}</div>
        )}
        {simulatedLabel && <span className="game-card__sim" data-testid="game-card-simulated">{simulatedLabel}</span>}
        {game.maintenance ? (
          <span className="game-card__badge">{labels.maintenance}</span>
        ) : (
          <div className="game-card__overlay">
            {/* Named with the game: a list read "Play now" over and over with no game (its name comes after). */}
            <button type="button" className="game-card__play" onClick={() => onPlay(game)} aria-label={`${labels.playNow}: ${game.gameName}`}>
              {labels.playNow}
            </button>
            {onTrial && (
              <button type="button" className="game-card__trial" onClick={() => onTrial(game)} aria-label={`${labels.freeTrial}: ${game.gameName}`}>
                {labels.freeTrial}
              </button>
            )}
          </div>
        )}
        <button
          type="button"
          className={`game-card__fav${isFavourite ? ' is-on' : ''}${isFavouriteDisabled ? ' is-disabled' : ''}`}
          data-testid={`favourite-toggle-${game.nodeId}`}
          aria-pressed={isFavourite}
          aria-disabled={isFavouriteDisabled || undefined}
          aria-label={`${favouriteLabel}: ${game.gameName}`}
          data-tooltip={favouriteDisabledHint ?? favouriteLabel}
          onClick={() => {
            if (!isFavouriteDisabled) onToggleFavourite(game);
          }}
        >
          <svg viewBox="0 0 24 24" aria-hidden="true">
            <path d="M12 20.5s-7.5-4.6-9.3-9.1C1.5 8.3 3.4 5 6.7 5c2 0 3.4 1.1 4.3 2.4h2C13.9 6.1 15.3 5 17.3 5c3.3 0 5.2 3.3 4 6.4-1.8 4.5-9.3 9.1-9.3 9.1z" />
          </svg>
        </button>
      </div>
      <div className="game-card__body">
        <h3 className="game-card__name" title={game.gameName}>{game.gameName}</h3>
        <span className="game-card__vendor">{vendorName(game.vassalage, game.gameType)}</span>
      </div>
    </article>
  );
}
