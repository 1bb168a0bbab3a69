import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { TVassGameType } from '@portal/contracts/api/games';
import type { GameType } from '@portal/contracts/domain/constants';
import { useSessionToken } from '../../../lib/session';
import { requestLaunch } from '../../../lib/game-launch';
import { useVassGameType } from '../api/get-vass-game-type';
import { useGameList } from '../api/get-game-list';
import { GameGrid } from './game-grid';
import { LoginPrompt } from './login-prompt';
import { VendorMark } from './vendor-mark';
import './game-centre.css';

type VendorCentreProps = {
  gameType: GameType;
  title: string;
  /** The chosen vendor (?vassalage=): its games are listed below the vendor cards. */
  vendor: string | null;
};

/**
 * Game centre pages (/live, /fish, /pvp, /sports, /esports, /cockfight): the vendors of the type as
 * cards. A card goes through the launch machine (which routes a vendor to its page, ?vassalage=),
 * and the chosen vendor's games are listed for players with a session.
 */
export function VendorCentre({ gameType, title, vendor }: VendorCentreProps) {
  const { t } = useTranslation('games');
  const token = useSessionToken();
  const vendorsQuery = useVassGameType(gameType);
  const vendors = vendorsQuery.data?.vendors ?? [];
  const chosen = vendors.find((v) => v.vassalage.toLowerCase() === vendor?.toLowerCase()) ?? null;
  const filter = useMemo(() => ({ gameType, ...(chosen ? { vassalage: chosen.vassalage } : {}) }), [gameType, chosen]);
  const list = useGameList(filter, token, chosen !== null);
  const games = list.data?.pages.flatMap((p) => p.games) ?? [];

  return (
    <section className="game-centre container" data-testid="game-centre">
      <header className="game-centre__head">
        <h1 className="game-centre__title">{title}</h1>
      </header>
      {vendorsQuery.isError && <p className="game-centre__prompt">{t('centre.error')}</p>}
      {vendorsQuery.isSuccess && vendors.length === 0 && <p className="game-centre__prompt">{t('centre.noVendors')}</p>}
      <ul className="game-centre__vendor-cards">
        {vendors.map((v) => (
          <li key={v.vassalage}>
            <VendorCard vendor={v} isActive={chosen?.vassalage === v.vassalage} />
          </li>
        ))}
      </ul>
      {chosen && (
        <>
          <h2 className="game-centre__subtitle">{t('centre.vendorGames', { name: chosen.displayName })}</h2>
          {token === null ? (
            <LoginPrompt />
          ) : list.isError ? (
            <p className="game-centre__prompt">{t('centre.error')}</p>
          ) : !list.isPending && games.length === 0 ? (
            <p className="game-centre__prompt">{t('centre.empty')}</p>
          ) : (
            <GameGrid games={games} hasMore={list.hasNextPage} isLoadingMore={list.isFetchingNextPage} onLoadMore={() => void list.fetchNextPage()} />
          )}
        </>
      )}
      {!chosen && token === null && vendors.length > 0 && <LoginPrompt />}
    </section>
  );
}

function VendorCard({ vendor, isActive }: { vendor: TVassGameType; isActive: boolean }) {
  const { t } = useTranslation('games');
  return (
    <button
      type="button"
      className={`game-centre__vendor-card${isActive ? ' is-active' : ''}`}
      data-testid={`game-centre-vendor-${vendor.vassalage}`}
      aria-pressed={isActive}
      onClick={() => requestLaunch({ kind: 'vendor', vassalage: vendor.vassalage, gameType: vendor.gameType, displayName: vendor.displayName })}
    >
      <VendorMark name={vendor.displayName} iconUrl={vendor.iconUrl} size={64} />
      <span className="game-centre__vendor-name">{vendor.displayName}</span>
      <span className={`game-centre__tag${vendor.maintenance ? ' is-warn' : ''}`}>
        {vendor.maintenance ? t('centre.maintenance') : t('centre.count', { count: vendor.gameCount })}
      </span>
    </button>
  );
}
