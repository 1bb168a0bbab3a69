import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { currencyExponent, formatMinor } from '@portal/contracts/domain/money';
import { errorMessage } from '../../../lib/field-message';
import { FormMessage } from '../../../ui/form-field';
import { useBalance } from '../api/get-balance';
import './wallet.css';

type Props = {
  /** Bonus money still under wagering (promotions), kept apart from the withdrawable balance; omitted when unknown. */
  bonusBalance?: number;
  /** Points balance (points mall); omitted when unknown. */
  points?: number;
};

/**
 * Member centre `transferFund`: the player's wallets. The portal is seamless (every game, house or
 * vendor, plays straight from the main wallet), so there is nothing to move to a game wallet: this
 * screen shows the balances and says so, with the way to deposit, withdraw and read more.
 */
export function WalletsPanel({ bonusBalance, points }: Props) {
  const { t } = useTranslation('wallet');
  const q = useBalance();
  const b = q.data;
  const money = (minor: number) => formatMinor(minor, b?.currencySymbol ?? '', currencyExponent(b?.currency));
  return (
    <div className="mc-card" data-testid="wallets-panel">
      <h1 className="mc-title">{t('wallets_title')}</h1>
      {q.error && <FormMessage message={errorMessage(q.error)} />}
      <dl className="wallets">
        <div className="wallets__item wallets__item--main" data-wallet="main">
          <dt>{t('wallets_main')}</dt>
          <dd data-testid="wallet-main">{b ? money(b.balance) : '…'}</dd>
          <span className="wallets__note">{t('wallets_main_note')}</span>
        </div>
        <div className="wallets__item" data-wallet="withdrawable">
          <dt>{t('wallets_withdrawable')}</dt>
          <dd data-testid="wallet-withdrawable">{b ? money(b.available) : '…'}</dd>
          {b && b.held > 0 && <span className="wallets__note">{t('wallets_held', { amount: money(b.held) })}</span>}
        </div>
        {bonusBalance !== undefined && (
          <div className="wallets__item" data-wallet="bonus">
            <dt>{t('wallets_bonus')}</dt>
            <dd data-testid="wallet-bonus">{money(bonusBalance)}</dd>
            <span className="wallets__note">{t('wallets_bonus_note')}</span>
          </div>
        )}
        {points !== undefined && (
          <div className="wallets__item" data-wallet="points">
            <dt>{t('wallets_points')}</dt>
            <dd data-testid="wallet-points">{points.toLocaleString()}</dd>
            <span className="wallets__note">{t('wallets_points_note')}</span>
          </div>
        )}
      </dl>
      <div className="wallets__seamless" data-testid="wallets-seamless">
        <h2>{t('wallets_seamless_title')}</h2>
        <p>{t('wallets_seamless_text')}</p>
      </div>
      <div className="wallets__actions">
        <Link className="btn btn--primary" to="/member?tab=depositv2">{t('wallets_deposit')}</Link>
        <Link className="btn btn--outline" to="/member?tab=withdraw">{t('wallets_withdraw')}</Link>
        <Link className="btn btn--outline" to="/seamless">{t('wallets_seamless_more')}</Link>
      </div>
    </div>
  );
}
