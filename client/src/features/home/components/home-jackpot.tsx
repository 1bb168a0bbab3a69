import { useTranslation } from 'react-i18next';
import { LIMITS } from '@portal/contracts/domain/constants';
import { NumberRoller } from '../../../ui/number-roller';
import { minorPerMajor, scaleCentavos } from '@portal/contracts/domain/money';
import { useCurrency } from '../../../lib/use-money';

/** Decorative jackpot (spec section 4): not a server value. */
export function HomeJackpot() {
  const { t } = useTranslation('home');
  const { code, symbol, exponent } = useCurrency();
  // The range is in pesos; another currency shows it at the demo rate and with its own decimals (₫ none).
  const major = (pesos: number) => Math.round(scaleCentavos(pesos * 100, code) / minorPerMajor(exponent));
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
          min={major(LIMITS.JACKPOT_HOME_MIN)}
          max={major(LIMITS.JACKPOT_HOME_MAX)}
          decimals={exponent}
          rowHeight={LIMITS.JACKPOT_ROW_HEIGHT}
          prefix={symbol || undefined}
        />
      </div>
      <p className="home-jackpot__note">{t('jackpot.note')}</p>
    </section>
  );
}
