import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FISH_IDS, type THouseSession, type TShootResult } from '@portal/contracts/api/house';
import { errorKey } from '../../../lib/error-key';
import { useMoney } from '../../../lib/use-money';
import { shootFish } from '../api/house-ops';

type FishId = (typeof FISH_IDS)[number];
const LOOK: Record<FishId, { multiple: number; color: string; size: number; top: number; speed: number }> = {
  clown: { multiple: 2, color: '#ff8c1a', size: 46, top: 6, speed: 9 },
  puffer: { multiple: 5, color: '#ffd23f', size: 54, top: 24, speed: 12 },
  turtle: { multiple: 10, color: '#3bb273', size: 62, top: 44, speed: 15 },
  shark: { multiple: 30, color: '#8aa1b1', size: 82, top: 56, speed: 11 },
  whale: { multiple: 100, color: '#4f6bed', size: 110, top: 70, speed: 20 },
};

function FishShape({ id }: { id: FishId }) {
  const l = LOOK[id];
  return (
    <svg viewBox="0 0 60 36" width={l.size} height={l.size * 0.6} aria-hidden="true">
      <ellipse cx="26" cy="18" rx="22" ry="13" fill={l.color} />
      <path d="M46 18 L59 6 L59 30 Z" fill={l.color} />
      <circle cx="14" cy="15" r="3" fill="#fff" />
      <circle cx="14" cy="15" r="1.5" fill="#111" />
    </svg>
  );
}

/** Lucky Fishing: tap a fish to shoot; the stake is the shot's cost, a catch pays the fish's multiple. */
export function FishPond({ session, onBalance }: { session: THouseSession; onBalance: (balance: number, nonce: number) => void }) {
  const { t } = useTranslation('house');
  const money = useMoney();
  const [stake, setStake] = useState(session.stakes[0] ?? 100);
  const [last, setLast] = useState<TShootResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [isBusy, setBusy] = useState(false);

  const shoot = async (fish: FishId) => {
    if (isBusy) return;
    setBusy(true);
    setError(null);
    try {
      const r = await shootFish(fish, stake);
      setLast(r);
      onBalance(r.balance, r.nonce);
    } catch (e) {
      setError(t(`common:${errorKey(e)}`));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="hf-wrap" data-testid="fish-pond">
      <div className="hf-pond">
        {FISH_IDS.map((id) => (
          <button
            key={id}
            type="button"
            className={`hf-fish${last?.fish === id ? (last.caught ? ' is-caught' : ' is-missed') : ''}`}
            style={{ top: `${LOOK[id].top}%`, animationDuration: `${LOOK[id].speed}s` }}
            onClick={() => shoot(id)}
            disabled={isBusy}
            aria-label={t('fish_shoot', { fish: t(`fish_${id}`), multiple: LOOK[id].multiple })}
            data-testid={`fish-${id}`}
          >
            <FishShape id={id} />
            <span className="hf-tag">×{LOOK[id].multiple}</span>
          </button>
        ))}
      </div>
      <div className="hs-win" aria-live="polite" data-testid="fish-result">
        {last ? (last.caught ? <span className={last.bigWin ? 'hs-win--big' : ''}>{t('fish_caught', { fish: t(`fish_${last.fish}`) })} {money(last.win)}</span> : <span className="hs-muted">{t('fish_missed')}</span>) : <span className="hs-muted">{t('fish_hint')}</span>}
      </div>
      {error && <p className="hs-error" role="alert">{error}</p>}
      <div className="hs-stakes" role="group" aria-label={t('stake')}>
        {session.stakes.map((s) => (
          <button key={s} type="button" className="hs-chip" aria-pressed={stake === s} onClick={() => setStake(s)} data-testid={`fish-stake-${s}`}>{money(s)}</button>
        ))}
      </div>
    </div>
  );
}
