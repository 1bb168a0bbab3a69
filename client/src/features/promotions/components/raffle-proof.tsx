import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { drawWinners } from '@portal/contracts/domain/promotions';
import { useDateTime } from '../../../lib/use-money';
import { useRaffle } from '../api/promotions';

async function sha256Hex(s: string): Promise<string> {
  const d = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(s));
  return [...new Uint8Array(d)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * A raffle's verifiable draw: the seed's hash published before the draw, the seed after it, the
 * entries and the winners; "Verify" recomputes both in the browser (WebCrypto), with no server help.
 */
export function RaffleProof({ promotionId }: { promotionId: string }) {
  const { t } = useTranslation('promotions');
  const dateTime = useDateTime();
  const raffle = useRaffle(promotionId);
  const [verdict, setVerdict] = useState<'ok' | 'bad' | null>(null);
  const r = raffle.data;
  if (!r) return null;
  const verify = async () => {
    if (!r.seed) return;
    const hashOk = (await sha256Hex(r.seed)) === r.seedHash;
    const winners = await drawWinners(r.seed, r.entries, r.winners, sha256Hex);
    setVerdict(hashOk && JSON.stringify(winners) === JSON.stringify(r.winningEntries) ? 'ok' : 'bad');
  };
  return (
    <div className="promo-raffle" data-testid="promo-raffle">
      <span>{t('raffle_draw_at', { when: dateTime(r.drawAt) })}</span>
      <span>{t('raffle_entries', { n: r.entries.length })}{r.myEntry ? ` · ${t('raffle_my_entry', { id: r.myEntry })}` : ''}</span>
      <span>{t('raffle_seed_hash')}: <code>{r.seedHash}</code></span>
      {r.seed ? (
        <>
          <span>{t('raffle_seed')}: <code>{r.seed}</code></span>
          <span>{t('raffle_winners')}: {r.winningEntries.join(', ') || '-'}</span>
          <span className="promo-card__actions">
            <button type="button" className="btn btn--outline btn--sm" onClick={() => void verify()} data-testid="promo-raffle-verify">{t('raffle_verify')}</button>
            {verdict && <span data-testid="promo-raffle-verdict" className={`promo-status promo-status--${verdict === 'ok' ? 'claimed' : 'rejected'}`}>{t(verdict === 'ok' ? 'raffle_verified' : 'raffle_mismatch')}</span>}
          </span>
        </>
      ) : <span>{t('raffle_not_drawn')}</span>}
    </div>
  );
}
