import { useParams, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { ComingSoonPage } from './coming-soon-page';

/** Named route gameListCenter: /gameListCenter/:vassalage/:gameType?vassalage=... */
export function GameListCenterPage() {
  const { t } = useTranslation('common');
  const params = useParams();
  const [search] = useSearchParams();
  const vassalage = search.get('vassalage') ?? params.vassalage ?? '';
  return <ComingSoonPage titleKey="page_game_list" detail={vassalage ? t('provider_named', { name: vassalage }) : undefined} />;
}

/** Game centre pages (/sports, /live, ...) keep the chosen provider from ?vassalage. */
export function GameCentrePage({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation('common');
  const [search] = useSearchParams();
  const vassalage = search.get('vassalage');
  return <ComingSoonPage titleKey={titleKey} detail={vassalage ? t('provider_named', { name: vassalage }) : undefined} />;
}
