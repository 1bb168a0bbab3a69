import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { pvpJoinErrorKey } from '../lib/pvp-join';
import { useMoney } from '../../../lib/use-money';
import { Card, useTimedTable } from './timed-table';
import { getPvpState, joinPvp } from '../api/house-ops';
import '../lucky9.css';

/**
 * Lucky 9 Duel (PVP1): players against each other. The round is polled every second: seats open
 * with a countdown on the server's clock, then your cards, then everyone's hands, the pot, the rake
 * and the winner, with the round's seed revealed.
 */
export function Lucky9Table({ onBalance }: { onBalance: (balance: number) => void }) {
  const { t } = useTranslation('house');
  const money = useMoney();
  const { state, apply, serverNow, error, setError, isBusy, setBusy } = useTimedTable(getPvpState, onBalance);
  // A refusal belongs to the round it was made in: the next round's open seats clear it (it stayed on
  // beside "Seats close in 5 s" and a working Join button).
  const errorRound = useRef<number | null>(null);
  const roundNo = state?.roundNo;
  useEffect(() => {
    if (errorRound.current !== null && roundNo !== undefined && roundNo !== errorRound.current) {
      errorRound.current = null;
      setError(null);
    }
  }, [roundNo, setError]);

  const join = async () => {
    setBusy(true);
    setError(null);
    try {
      apply(await joinPvp());
    } catch (e) {
      errorRound.current = state?.roundNo ?? null;
      // The seats closed (the deal started) or filled while the click was on its way: said as such,
      // not as the generic "not allowed right now".
      setError(t(pvpJoinErrorKey(e)));
    } finally {
      setBusy(false);
    }
  };

  if (!state) return <p className="hs-muted">{error ?? t('loading')}</p>;
  const left = Math.max(0, Math.ceil((Date.parse(state.closesAt) - serverNow) / 1000));
  const isOpen = state.phase === 'joining' && left > 0;
  const me = state.seats.find((s) => s.me);
  const status = isOpen
    ? t('pvp_joining', { s: left })
    : state.phase === 'joining'
      ? t('pvp_dealing')
      : state.phase === 'dealt'
        ? t('pvp_reveal')
        : state.cancelled
          ? t('pvp_cancelled')
          : state.winners.length > 1
            ? t('pvp_split', { count: state.winners.length })
            : t('pvp_winner', { name: state.seats.find((s) => s.seat === state.winners[0])?.nickname ?? '' });
  return (
    <main className="hb-table" data-testid="pvp-table">
      <div className="hb-status">
        <span className="hs-muted">{t('bacc_round', { no: state.roundNo })}</span>
        <strong className={`hb-timer${isOpen && left <= 5 ? ' is-low' : ''}`} data-testid="pvp-status">{status}</strong>
      </div>
      <div className="l9-info">
        <span>{t('pvp_ante')}: <strong data-testid="pvp-ante">{money(state.ante)}</strong></span>
        <span>{t('pvp_pot')}: <strong data-testid="pvp-pot">{money(state.pot)}</strong></span>
        <span>{t('pvp_rake', { percent: state.rakePercent })}{state.rake !== null && <>: <strong data-testid="pvp-rake">{money(state.rake)}</strong></>}</span>
        <span className="hs-muted">{t('pvp_seats', { n: state.seats.length, max: state.maxSeats })}</span>
      </div>
      <div className="l9-seats" data-testid="pvp-seats">
        {state.seats.length === 0 && <p className="hs-muted">{t('pvp_empty', { min: state.minPlayers })}</p>}
        {state.seats.map((s) => {
          const won = state.winners.includes(s.seat);
          return (
            <div key={s.seat} className={`l9-seat${s.me ? ' is-me' : ''}${won ? ' is-win' : ''}`} data-testid={s.me ? 'pvp-my-seat' : 'pvp-seat'}>
              <h3>
                <span>{s.nickname}{s.me && <em className="l9-you">{t('pvp_you')}</em>}</span>
                {s.value !== null && <span className="hb-total">{s.value}</span>}
              </h3>
              <div className="hb-cards">{s.cards ? s.cards.map((c, i) => <Card key={i} c={c} />) : <><span className="hb-back" /><span className="hb-back" /></>}</div>
              {s.win !== null && <p className={won ? 'l9-won' : 'hs-muted'}>{s.win > 0 ? `${t('win')} ${money(s.win)}` : t('pvp_lost')}</p>}
              {s.status === 'rolled_back' && <p className="hs-muted">{t('pvp_refunded')}</p>}
            </div>
          );
        })}
      </div>
      {error && <p className="hs-error" role="alert" data-testid="pvp-error">{error}</p>}
      <div className="l9-actions">
        {state.joined ? (
          <p className="hs-muted" data-testid="pvp-joined">{state.phase === 'joining' ? t('pvp_waiting') : me?.value != null ? t('pvp_your_hand', { value: me.value }) : ''}</p>
        ) : (
          <button type="button" className="hs-spin" onClick={join} disabled={!isOpen || isBusy} data-testid="pvp-join">
            {t('pvp_join', { ante: money(state.ante) })}
          </button>
        )}
      </div>
      <p className="hs-muted hs-small">{t('pvp_rules', { percent: state.rakePercent, min: state.minPlayers })}</p>
      <section className="hs-fair hs-small">
        <div><span className="hs-muted">{t('server_seed_hash')}: </span><span className="hs-mono" data-testid="pvp-seed-hash">{state.seedHash}</span></div>
        {state.serverSeed && <div data-testid="pvp-seed"><span className="hs-muted">{t('revealed_seed')}: </span><span className="hs-mono">{state.serverSeed}</span></div>}
        <p className="hs-muted">{t('pvp_fair_hint', { round: state.roundId })}</p>
      </section>
    </main>
  );
}
