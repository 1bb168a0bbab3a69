import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { RgExclusionState } from '../lib/rg-exclusion';
import { useDateTime } from '../lib/use-money';
import './exclusion-notice.css';

/** The money-in places a restricted session finds closed (the server refuses each with RG_EXCLUDED). */
export type ClosedPlace = 'deposit' | 'transfer' | 'promotions' | 'rewards' | 'points' | 'games' | 'missions';

/**
 * In place of a form the server would refuse: which exclusion, what is closed and until when, and the
 * way to what stays open (withdrawing the balance, the responsible-gaming page).
 */
export function ExclusionNotice({ exclusion, place, compact = false, onLeave }: {
  exclusion: NonNullable<RgExclusionState>;
  place: ClosedPlace;
  compact?: boolean;
  /** Called when a link is followed (a dialog showing the notice closes). */
  onLeave?: () => void;
}) {
  const { t } = useTranslation(['rg', 'common']);
  const dateTime = useDateTime();
  const closed: Record<ClosedPlace, string> = {
    deposit: t('rg_closed_deposit'),
    transfer: t('rg_closed_transfer'),
    promotions: t('rg_closed_promotions'),
    rewards: t('rg_closed_rewards'),
    points: t('rg_closed_points'),
    games: t('rg_closed_games'),
    missions: t('rg_closed_missions'),
  };
  return (
    <div className={`rg-closed${compact ? ' rg-closed--compact' : ''}`} role="status" data-testid={`rg-closed-${place}`}>
      <p className="rg-closed__title">{t('rg_excluded_title', { kind: t(`rg_xkind_${exclusion.kind}`, { defaultValue: exclusion.kind }) })}</p>
      <p>
        {closed[place]} {exclusion.until ? t('rg_excluded_until', { when: dateTime(exclusion.until) }) : t('rg_excluded_open')}
      </p>
      <p className="rg-closed__links">
        <span>{t('rg_closed_withdraw_open')}</span>{' '}
        <Link to="/member?tab=withdraw" onClick={onLeave} data-testid="rg-closed-withdraw">{t('common:rg_restricted_withdraw')}</Link>{' · '}
        <Link to="/member?tab=responsibleGaming" onClick={onLeave}>{t('common:responsible_gaming')}</Link>
      </p>
    </div>
  );
}
