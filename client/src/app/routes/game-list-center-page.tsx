import { useParams, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { GAME_TYPES, VENDOR_CODES } from '@portal/contracts/domain/constants';
import type { GameType } from '@portal/contracts/domain/constants';
import { SlotsCentre } from '../../features/game-centre/components/slots-centre';
import { VendorCentre } from '../../features/game-centre/components/vendor-centre';
import { LotteryCentre } from '../../features/game-centre/components/lottery-centre';
import type { LotteryKind } from '../../features/game-centre/components/lottery-centre';

const toGameType = (raw: string | undefined): GameType => {
  const upper = (raw ?? '').toUpperCase();
  return (GAME_TYPES as readonly string[]).includes(upper) ? (upper as GameType) : 'RNG';
};

/** Named route gameListCenter: /gameListCenter/:vassalage/:gameType?vassalage=... (one vendor's games). */
export function GameListCenterPage() {
  const { t } = useTranslation('common');
  const params = useParams();
  const [search] = useSearchParams();
  const vassalage = search.get('vassalage') ?? params.vassalage?.toUpperCase() ?? '';
  return <SlotsCentre key={vassalage} gameType={toGameType(params.gameType)} vendor={vassalage} title={t('page_game_list')} />;
}

/** Slots: /rng (every vendor) and /jili (the JILI vendor). */
export function SlotsPage({ titleKey, vendor }: { titleKey: string; vendor?: string }) {
  const { t } = useTranslation('common');
  return <SlotsCentre gameType="RNG" {...(vendor ? { vendor } : {})} title={t(titleKey)} />;
}

export const JILI_VENDOR = VENDOR_CODES.JILI;

/** Game centre pages (/sports, /live, ...): vendor cards; ?vassalage= lists that vendor's games. */
export function GameCentrePage({ titleKey, gameType }: { titleKey: string; gameType: GameType }) {
  const { t } = useTranslation('common');
  const [search] = useSearchParams();
  return <VendorCentre gameType={gameType} title={t(titleKey)} vendor={search.get('vassalage')} />;
}

/** Lottery pages (login required): their vendor's games; ?gameCode= puts that game first. */
export function LotteryPage({ titleKey, kind }: { titleKey: string; kind: LotteryKind }) {
  const { t } = useTranslation('common');
  const [search] = useSearchParams();
  return <LotteryCentre kind={kind} title={t(titleKey)} gameCode={search.get('gameCode')} vendor={search.get('vassalage')} />;
}
