import { useTranslation } from 'react-i18next';
import { LIMITS } from '@portal/contracts/domain/constants';
import { NumberRoller } from '../../../ui/number-roller';
import { useWhitelabel } from '../../../lib/whitelabel';

/** Decorative jackpot (spec section 4): not a server value. */
export function HomeJackpot() {
  const { t } = useTranslation('home');
  const symbol = useWhitelabel().data?.brand.currencySymbol;
  return (
    <section className="home-jackpot" data-testid="home-jackpot" aria-label={t('jackpot.title')}>
      <div className="home-jackpot__glow" aria-hidden="true" />
      <div className="home-jackpot__label">
        <span className="home-jackpot__spark" aria-hidden="true">★</span>
        {t('jackpot.title')}
        <span className="home-jackpot__spark" aria-hidden="true">★</span>
      </div>
      <div className="home-jackpot__value">
        <NumberRoller
          min={LIMITS.JACKPOT_HOME_MIN}
          max={LIMITS.JACKPOT_HOME_MAX}
          decimals={2}
          rowHeight={LIMITS.JACKPOT_ROW_HEIGHT}
          prefix={symbol}
        />
      </div>
      <p className="home-jackpot__note">{t('jackpot.note')}</p>
    </section>
  );
}
