import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { VENDOR_CODES } from '@portal/contracts/domain/constants';
import { useSessionToken } from '../../../lib/session';
import { useVassGameType } from '../api/get-vass-game-type';
import { useGameList } from '../api/get-game-list';
import { GameGrid } from './game-grid';
import './game-centre.css';

export type LotteryKind = 'lottery' | 'sea' | 'vn';

/**
 * Lottery pages (login required by the route): the games of their vendor. /vnLottery and
 * /seaLottery are one vendor each; /lottery lists the other LOTT and ELOTT vendors' games.
 * Cards start games directly (they are already on their lottery page).
 */
export function LotteryCentre({ kind, title, gameCode, vendor }: { kind: LotteryKind; title: string; gameCode: string | null; vendor: string | null }) {
  const { t } = useTranslation(['games', 'common']);
  const token = useSessionToken();
  const lott = useVassGameType('LOTT');
  const elott = useVassGameType('ELOTT');
  const fixed = kind === 'vn' ? VENDOR_CODES.VN_LOTTERY : kind === 'sea' ? VENDOR_CODES.SEA_LOTTERY : null;
  const others = [...(lott.data?.vendors ?? []), ...(elott.data?.vendors ?? [])].filter(
    (v) => v.vassalage !== VENDOR_CODES.VN_LOTTERY && v.vassalage !== VENDOR_CODES.SEA_LOTTERY,
  );
  const vassalage = fixed ?? vendor ?? undefined;
  const isAsked = (g: { gameCode: string; vassalage: string }) => g.gameCode === gameCode && (vassalage === undefined || g.vassalage === vassalage);
  const filterLott = useMemo(() => ({ gameType: 'LOTT' as const, ...(vassalage ? { vassalage } : {}) }), [vassalage]);
  const filterElott = useMemo(() => ({ gameType: 'ELOTT' as const, ...(vassalage ? { vassalage } : {}) }), [vassalage]);
  const lottGames = useGameList(filterLott, token, token !== null);
  const elottGames = useGameList(filterElott, token, token !== null);
  const games = [...(lottGames.data?.pages.flatMap((p) => p.games) ?? []), ...(elottGames.data?.pages.flatMap((p) => p.games) ?? [])]
    .filter((g) => fixed !== null || vassalage !== undefined || others.some((v) => v.vassalage === g.vassalage))
    // The game asked for in ?gameCode= (of the vendor asked for) comes first.
    .sort((a, b) => Number(isAsked(b)) - Number(isAsked(a)));
  const isPending = lottGames.isPending || elottGames.isPending;
  const selected = gameCode ? games.find(isAsked) : undefined;
  // An e-lottery vendor's page is headed as the menu item that led there (E-Lottery), not "Lottery".
  const isElott = kind === 'lottery' && vassalage !== undefined && (elott.data?.vendors ?? []).some((v) => v.vassalage === vassalage)
    && !(lott.data?.vendors ?? []).some((v) => v.vassalage === vassalage);

  return (
    <section className="game-centre container" data-testid="game-centre">
      <header className="game-centre__head">
        <h1 className="game-centre__title">{isElott ? t('common:nav_elott') : title}</h1>
        {selected && <p className="game-centre__muted">{t('centre.selectedGame', { name: selected.gameName })}</p>}
      </header>
      {isPending ? (
        <p className="game-centre__muted">{t('centre.loading')}</p>
      ) : games.length === 0 ? (
        <p className="game-centre__prompt">{t('centre.lotteryEmpty')}</p>
      ) : (
        <GameGrid
          direct
          games={games}
          hasMore={lottGames.hasNextPage || elottGames.hasNextPage}
          isLoadingMore={lottGames.isFetchingNextPage || elottGames.isFetchingNextPage}
          onLoadMore={() => {
            if (lottGames.hasNextPage) void lottGames.fetchNextPage();
            if (elottGames.hasNextPage) void elottGames.fetchNextPage();
          }}
        />
      )}
    </section>
  );
}
