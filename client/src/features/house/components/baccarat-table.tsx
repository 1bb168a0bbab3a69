import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BACCARAT_SIDES } from '@portal/contracts/api/house';
import { errorKey } from '../../../lib/error-key';
import { useMoney } from '../../../lib/use-money';
import { getBaccaratState, placeBaccaratBet } from '../api/house-ops';
import { Card, useTimedTable } from './timed-table';

type Side = (typeof BACCARAT_SIDES)[number];

/** Speed Baccarat: the table's round polled every second, a countdown on the server's clock, bets on player, banker or tie. */
export function BaccaratTable({ onBalance }: { onBalance: (balance: number) => void }) {
  const { t } = useTranslation('house');
  const money = useMoney();
  const [stake, setStake] = useState(100);
  const { state, apply, serverNow, error, setError, isBusy, setBusy } = useTimedTable(getBaccaratState, onBalance);

  const bet = async (side: Side) => {
    setBusy(true);
    setError(null);
    try {
      apply(await placeBaccaratBet(side, stake));
    } catch (e) {
      setError(t(`common:${errorKey(e)}`));
    } finally {
      setBusy(false);
    }
  };

  if (!state) return <p className="hs-muted">{error ?? t('loading')}</p>;
  const left = Math.max(0, Math.ceil((Date.parse(state.closesAt) - serverNow) / 1000));
  const isOpen = state.phase === 'betting' && left > 0;
  const winner = state.result?.winner;
  const payout = state.myBets.reduce((a, b) => a + (b.win ?? 0), 0);
  return (
    <main className="hb-table" data-testid="baccarat-table">
      <div className="hb-status">
        <span className="hs-muted">{t('bacc_round', { no: state.roundNo })}</span>
        {isOpen ? (
          <strong className={`hb-timer${left <= 5 ? ' is-low' : ''}`} data-testid="baccarat-timer">{t('bacc_bets_close', { s: left })}</strong>
        ) : (
          <strong className="hb-timer">{state.phase === 'betting' ? t('bacc_dealing') : t(`bacc_won_${winner}`)}</strong>
        )}
      </div>
      <div className="hb-hands">
        {(['player', 'banker'] as const).map((side) => (
          <div key={side} className={`hb-hand hb-hand--${side}${winner === side ? ' is-win' : ''}`}>
            <h3>{t(`bacc_${side}`)} {state.result && <span className="hb-total">{side === 'player' ? state.result.playerTotal : state.result.bankerTotal}</span>}</h3>
            <div className="hb-cards">{state.result ? state.result[side].map((c, i) => <Card key={i} c={c} />) : <span className="hb-back" />}</div>
          </div>
        ))}
      </div>
      {error && <p className="hs-error" role="alert">{error}</p>}
      <div className="hs-stakes" role="group" aria-label={t('stake')}>
        {state.stakes.map((s) => (
          <button key={s} type="button" className="hs-chip" aria-pressed={stake === s} onClick={() => setStake(s)} data-testid={`baccarat-stake-${s}`}>{money(s)}</button>
        ))}
      </div>
      <div className="hb-sides">
        {BACCARAT_SIDES.map((side) => {
          const mine = state.myBets.filter((b) => b.side === side).reduce((a, b) => a + b.stake, 0);
          return (
            <button key={side} type="button" className={`hb-side hb-side--${side}`} disabled={!isOpen || isBusy} onClick={() => bet(side)} data-testid={`baccarat-bet-${side}`}>
              <span>{t(`bacc_${side}`)}</span>
              <small>{t(`bacc_pays_${side}`)}</small>
              {mine > 0 && <em>{money(mine)}</em>}
            </button>
          );
        })}
      </div>
      {state.myBets.some((b) => b.win !== null) && (
        <p className="hs-win" data-testid="baccarat-payout">
          {payout > 0 ? `${t('win')} ${money(payout)}` : <span className="hs-muted">{t('no_win')}</span>}
        </p>
      )}
      <div className="hb-road" aria-label={t('bacc_history')}>
        {state.history.map((w, i) => <span key={i} className={`hb-dot hb-dot--${w}`}>{t(`bacc_short_${w}`)}</span>)}
      </div>
      <section className="hs-fair hs-small">
        <div><span className="hs-muted">{t('server_seed_hash')}: </span><span className="hs-mono">{state.seedHash}</span></div>
        {state.serverSeed && <div data-testid="baccarat-seed"><span className="hs-muted">{t('revealed_seed')}: </span><span className="hs-mono">{state.serverSeed}</span></div>}
        <p className="hs-muted">{t('bacc_fair_hint')}</p>
      </section>
    </main>
  );
}
