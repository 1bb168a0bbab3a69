import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../lib/field-message';
import { BIG_WIN_CENTAVOS, maskName } from '@portal/contracts/domain/money';
import { useCurrency, useDateTime, useMoney, useMoneyExample } from '../../../lib/use-money';
import { FormMessage } from '../../../ui/form-field';
import { Icon } from '../../../ui/icons';
import { useWinners, WINNERS_PAGE_LIMIT } from '../api/site-facts';
import './site-pages.css';

/** /winners: the home page's winners board as a full page, live; what counts as a big win, said plainly. */
export function WinnersPage() {
  const { t } = useTranslation('pages');
  const money = useMoney();
  const { symbol } = useCurrency();
  const example = useMoneyExample();
  const formatDateTime = useDateTime();
  const q = useWinners();
  const list = q.data?.list ?? [];
  return (
    <section className="container site-page" data-testid="winners-page">
      <header className="page-head">
        <h1>{t('winners_title')}</h1>
        <p className="muted">{t('winners_intro', { limit: WINNERS_PAGE_LIMIT })}</p>
      </header>
      <aside className="site-note" data-testid="winners-rules">
        <strong>{t('winners_rules_title')}</strong>
        <p>{t('winners_rules', { amount: `${symbol}${example(BIG_WIN_CENTAVOS, { whole: true })}` })}</p>
      </aside>
      {q.error && <FormMessage message={errorMessage(q.error)} />}
      {q.data && list.length === 0 ? (
        <p className="site-empty">{t('winners_none')}</p>
      ) : (
        <div className="site-table-box">
          <table className="site-table site-table--winners" data-testid="winners-table">
            <thead>
              <tr>
                <th>{t('winners_col_time')}</th>
                <th>{t('winners_col_player')}</th>
                <th>{t('winners_col_game')}</th>
                <th className="num">{t('winners_col_amount')}</th>
              </tr>
            </thead>
            <tbody>
              {list.map((w) => (
                <tr key={w.id} data-testid="winners-row">
                  <td className="nowrap">{formatDateTime(w.at)}</td>
                  <td>{maskName(w.customerName)}</td>
                  <td>
                    <span className="site-game">
                      <GameIcon url={w.iconUrl} />
                      {w.gameName}
                    </span>
                  </td>
                  <td className="num site-win">{money(w.winAmount)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/** The game's catalogue icon; a neutral game glyph when the row has none or the image fails (never a broken image). */
function GameIcon({ url }: { url: string | null }) {
  const [isBroken, setBroken] = useState(false);
  return url && !isBroken
    ? <img src={url} alt="" loading="lazy" onError={() => setBroken(true)} data-testid="winner-game-icon" />
    : <span className="site-game__fallback" data-testid="winner-game-fallback"><Icon name="game" size={18} /></span>;
}
