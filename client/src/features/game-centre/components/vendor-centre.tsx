import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import type { TVassGameType } from '@portal/contracts/api/games';
import type { GameType } from '@portal/contracts/domain/constants';
import { useVassGameType } from '../api/get-vass-game-type';
import { useGameList } from '../api/get-game-list';
import { RoomStrip } from './room-strip';
import { GameGrid } from './game-grid';
import { VendorMark } from './vendor-mark';
import './game-centre.css';

type VendorCentreProps = {
  gameType: GameType;
  title: string;
  /** The chosen vendor (?vassalage=); none: every vendor's games. */
  vendor: string | null;
};

/**
 * Game centre pages (/live, /fish, /pvp, /sports, /esports, /cockfight), for guests and members
 * alike: the vendors of the type as tabs (all vendors first) and the games of the chosen tab in a
 * grid paged by 20. A guest who presses play gets the login popup from the launch machine.
 */
export function VendorCentre({ gameType, title, vendor }: VendorCentreProps) {
  const { t } = useTranslation('games');
  const [, setSearch] = useSearchParams();
  const vendorsQuery = useVassGameType(gameType);
  const vendors = vendorsQuery.data?.vendors ?? [];
  const chosen = vendors.find((v) => v.vassalage.toLowerCase() === vendor?.toLowerCase()) ?? null;
  const filter = useMemo(() => ({ gameType, ...(chosen ? { vassalage: chosen.vassalage } : {}) }), [gameType, chosen]);
  // Until the vendors are known a ?vassalage= cannot be told from a wrong one: wait, then list.
  const list = useGameList(filter, null, vendorsQuery.isSuccess);
  const games = list.data?.pages.flatMap((p) => p.games) ?? [];
  const total = list.data?.pages[0]?.total ?? 0;
  const pick = (code: string | null) => setSearch(code ? { vassalage: code } : {}, { preventScrollReset: true });

  return (
    <section className="game-centre container" data-testid="game-centre">
      <header className="game-centre__head">
        <h1 className="game-centre__title">{chosen ? t('centre.vendorGames', { name: chosen.displayName }) : title}</h1>
        {list.isSuccess && <p className="game-centre__muted" data-testid="game-centre-total">{t('centre.total', { count: total, n: total.toLocaleString('en-US') })}</p>}
      </header>
      {vendorsQuery.isError && <p className="game-centre__prompt">{t('centre.error')}</p>}
      {vendorsQuery.isSuccess && vendors.length === 0 && <p className="game-centre__prompt">{t('centre.noVendors')}</p>}
      {vendors.length > 0 && (
        <div className="game-centre__vendors" role="tablist" aria-label={t('centre.vendors')}>
          <button type="button" role="tab" aria-selected={chosen === null} className={`game-centre__vendor${chosen === null ? ' is-active' : ''}`} onClick={() => pick(null)} data-testid="game-centre-vendor-ALL">
            <span>{t('centre.allVendors')}</span>
          </button>
          {vendors.map((v) => (
            <VendorTab key={v.vassalage} vendor={v} isActive={chosen?.vassalage === v.vassalage} onClick={() => pick(v.vassalage)} />
          ))}
        </div>
      )}
      {(gameType === 'LIVE' || gameType === 'PVP') && (chosen === null || chosen.vassalage === 'HOUSE') && <RoomStrip gameType={gameType} />}
      {vendors.length > 0 &&
        (list.isError ? (
          <p className="game-centre__prompt">{t('centre.error')}</p>
        ) : list.isSuccess && games.length === 0 ? (
          <p className="game-centre__prompt">{chosen?.maintenance ? t('centre.maintenance') : t('centre.empty')}</p>
        ) : (
          <GameGrid games={games} hasMore={list.hasNextPage} isLoadingMore={list.isFetchingNextPage} onLoadMore={() => void list.fetchNextPage()} />
        ))}
    </section>
  );
}

function VendorTab({ vendor, isActive, onClick }: { vendor: TVassGameType; isActive: boolean; onClick: () => void }) {
  const { t } = useTranslation('games');
  return (
    <button
      type="button"
      role="tab"
      aria-selected={isActive}
      className={`game-centre__vendor${isActive ? ' is-active' : ''}`}
      data-testid={`game-centre-vendor-${vendor.vassalage}`}
      onClick={onClick}
    >
      <VendorMark name={vendor.displayName} iconUrl={vendor.iconUrl} size={28} />
      <span>{vendor.displayName}</span>
      <span className="game-centre__count">{vendor.maintenance ? t('centre.maintenance') : vendor.gameCount}</span>
    </button>
  );
}
