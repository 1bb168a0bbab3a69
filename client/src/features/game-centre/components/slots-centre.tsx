import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TGame, TVassGameType } from '@portal/contracts/api/games';
import type { GameType, RngClassify } from '@portal/contracts/domain/constants';
import { useSessionToken } from '../../../lib/session';
import { useWhitelabel } from '../../../lib/whitelabel';
import { requestLaunch, useFavourites } from '../../../lib/game-launch';
import { useVassGameType } from '../api/get-vass-game-type';
import { useGameList } from '../api/get-game-list';
import { useRecentGames } from '../api/get-recent-games';
import { useFavouriteGames } from '../api/get-favourite-games';
import { GameGrid } from './game-grid';
import { useDebounced } from './use-debounced';
import { VendorMark } from './vendor-mark';
import './game-centre.css';

type SlotsCentreProps = {
  gameType: GameType;
  /** One vendor only (gameListCenter, /jili): no vendor tabs. */
  vendor?: string;
  title: string;
};

/**
 * Game list centre (spec section 2: /rng, /jili, gameListCenter): vendor tabs with game counts,
 * RNG sub-category chips (BG only when TY is supported), debounced name search, favourites filter,
 * recently played strip and a windowed grid paged by 20 with infinite scroll.
 */
export function SlotsCentre({ gameType, vendor: fixedVendor, title }: SlotsCentreProps) {
  const { t } = useTranslation('games');
  const token = useSessionToken();
  const whitelabel = useWhitelabel();
  const vendorsQuery = useVassGameType(gameType);
  const [pickedVendor, setVendor] = useState<string | null>(null);
  const [classify, setClassify] = useState<RngClassify | null>(null);
  const [search, setSearch] = useState('');
  const [isFavouritesOnly, setFavouritesOnly] = useState(false);
  const gameName = useDebounced(search.trim(), 300);
  const vendor = fixedVendor ?? pickedVendor;

  const isTySupported = whitelabel.data?.brand.supportedLanguages.includes('TY') ?? true;
  const vendors = vendorsQuery.data?.vendors ?? [];
  const vendorEntry = vendors.find((v) => v.vassalage.toLowerCase() === vendor?.toLowerCase());
  const classifies = (vendorEntry?.gameClassifies ?? vendorsQuery.data?.gameClassifies ?? []).filter((c) => c !== 'BG' || isTySupported);
  const vendorCode = vendorEntry?.vassalage ?? vendor ?? undefined;

  const filter = useMemo(
    () => ({
      gameType,
      ...(vendorCode ? { vassalage: vendorCode } : {}),
      ...(classify && classifies.includes(classify) ? { gameClassify: classify } : {}),
      ...(gameName ? { gameName } : {}),
    }),
    [gameType, vendorCode, classify, classifies, gameName],
  );
  const list = useGameList(filter, token, !(isFavouritesOnly && token !== null));
  const favourites = useFavouriteGames(token, isFavouritesOnly && token !== null);
  const favouriteIds = useFavourites().ids;

  const games: TGame[] = useMemo(() => {
    if (isFavouritesOnly) {
      const all = favourites.data?.pages.flatMap((p) => p.content) ?? [];
      const needle = gameName.toLowerCase();
      return all.filter(
        (g) =>
          favouriteIds.has(g.nodeId) &&
          g.gameType === gameType &&
          (!filter.vassalage || g.vassalage === filter.vassalage) &&
          (!filter.gameClassify || g.gameClassify === filter.gameClassify) &&
          (!needle || g.gameName.toLowerCase().includes(needle)),
      );
    }
    return list.data?.pages.flatMap((p) => p.games) ?? [];
  }, [isFavouritesOnly, favourites.data, list.data, favouriteIds, gameType, filter, gameName]);
  const active = isFavouritesOnly ? favourites : list;
  const total = isFavouritesOnly ? games.length : (list.data?.pages[0]?.total ?? 0);

  return (
    <section className="game-centre container" data-testid="game-centre">
      <header className="game-centre__head">
        <h1 className="game-centre__title">{vendorEntry && fixedVendor ? t('centre.vendorGames', { name: vendorEntry.displayName }) : title}</h1>
      </header>

      {!fixedVendor && (
        <div className="game-centre__vendors" role="tablist" aria-label={t('centre.vendors')}>
          <VendorTab label={t('centre.allVendors')} code="ALL" isActive={vendor === null} onClick={() => setVendor(null)} />
          {vendors.map((v) => (
            <VendorTab key={v.vassalage} vendor={v} label={v.displayName} code={v.vassalage} count={v.gameCount} isActive={vendor === v.vassalage} onClick={() => setVendor(v.vassalage)} />
          ))}
        </div>
      )}

      {fixedVendor && vendorEntry && token === null && (
        <div className="game-centre__vendors">
          <VendorTab vendor={vendorEntry} label={vendorEntry.displayName} code={vendorEntry.vassalage} count={vendorEntry.gameCount} isActive onClick={() => {}} />
        </div>
      )}
      {
        <>
          {token !== null && <RecentStrip token={token} gameType={gameType} />}
          <div className="game-centre__filters">
            {classifies.length > 0 && (
              <div className="game-centre__chips">
                <Chip code="ALL" label={t('centre.allClassifies')} isActive={classify === null} onClick={() => setClassify(null)} />
                {classifies.map((c) => (
                  <Chip key={c} code={c} label={t(`centre.classify.${c}`)} isActive={classify === c} onClick={() => setClassify(c)} />
                ))}
              </div>
            )}
            <div className="game-centre__tools">
              <label className="game-centre__search">
                <span className="sr-only">{t('centre.searchLabel')}</span>
                <input
                  type="search"
                  value={search}
                  placeholder={t('centre.searchPlaceholder')}
                  onChange={(e) => setSearch(e.target.value)}
                  data-testid="game-centre-search"
                  maxLength={64}
                />
              </label>
              {token !== null && (
                <button
                  type="button"
                  className={`game-centre__chip${isFavouritesOnly ? ' is-active' : ''}`}
                  aria-pressed={isFavouritesOnly}
                  onClick={() => setFavouritesOnly((v) => !v)}
                  data-testid="game-centre-favourites"
                >
                  ♥ {t('centre.favouritesOnly')}
                </button>
              )}
            </div>
          </div>
          <p className="game-centre__muted" data-testid="game-centre-total">{active.isPending ? t('centre.loading') : t('centre.total', { count: total, n: total.toLocaleString('en-US') })}</p>
          {active.isError ? (
            <div className="game-centre__prompt">
              <p>{t('centre.error')}</p>
              <button type="button" className="btn btn--ghost" onClick={() => void active.refetch()}>{t('centre.retry')}</button>
            </div>
          ) : !active.isPending && games.length === 0 ? (
            <p className="game-centre__prompt">{t('centre.empty')}</p>
          ) : (
            <GameGrid
              games={games}
              hasMore={active.hasNextPage}
              isLoadingMore={active.isFetchingNextPage}
              onLoadMore={() => void active.fetchNextPage()}
            />
          )}
        </>
      }
    </section>
  );
}

function VendorTab({ vendor, label, code, count, isActive, onClick }: { vendor?: TVassGameType; label: string; code: string; count?: number; isActive: boolean; onClick: () => void }) {
  const { t } = useTranslation('games');
  return (
    <button type="button" role="tab" aria-selected={isActive} className={`game-centre__vendor${isActive ? ' is-active' : ''}`} onClick={onClick} data-testid={`game-centre-vendor-${code}`}>
      {vendor && <VendorMark name={vendor.displayName} iconUrl={vendor.iconUrl} size={26} />}
      <span>{label}</span>
      {count !== undefined && <span className="game-centre__count">{t('centre.count', { count })}</span>}
    </button>
  );
}

function Chip({ code, label, isActive, onClick }: { code: string; label: string; isActive: boolean; onClick: () => void }) {
  return (
    <button type="button" aria-pressed={isActive} className={`game-centre__chip${isActive ? ' is-active' : ''}`} onClick={onClick} data-testid={`game-centre-classify-${code}`}>
      {label}
    </button>
  );
}

function RecentStrip({ token, gameType }: { token: string; gameType: GameType }) {
  const { t } = useTranslation('games');
  const recent = useRecentGames(token);
  const games = (recent.data?.list ?? []).filter((g) => g.gameType === gameType);
  if (games.length === 0) return null;
  return (
    <div className="game-centre__recent" data-testid="game-centre-recent">
      <h2 className="game-centre__subtitle">{t('centre.recent')}</h2>
      <ul className="game-centre__recent-list">
        {games.map((g) => (
          <li key={g.nodeId}>
            <button type="button" className="game-centre__recent-item" onClick={() => requestLaunch({ kind: 'game', game: g })} title={g.gameName}>
              <VendorMark name={g.gameName} iconUrl={g.iconUrl} size={56} />
              <span>{g.gameName}</span>
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
