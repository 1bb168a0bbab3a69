import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TGame, TRoom } from '@portal/contracts/api/games';
import { requestLaunch } from '../../../lib/game-launch';
import { useMoney } from '../../../lib/use-money';
import { useRoomList } from '../api/get-room-list';

/** Seconds from the server's now to `at` (the page's clock corrected by the read's serverNow), at least 0. */
export function secondsLeft(at: string | null, serverNow: string, readAt: number, now: number): number | null {
  if (!at) return null;
  const left = Date.parse(at) - (Date.parse(serverNow) + (now - readAt));
  return Math.max(0, Math.ceil(left / 1000));
}

/** What a room's phase line says, as a text key and its values. */
function phaseText(r: TRoom, gameType: 'LIVE' | 'PVP', left: number | null): [string, { s: number }?] {
  if (r.maintenance) return ['rooms.maintenance'];
  if (r.phase === null) return ['rooms.starting'];
  const betting = r.phase === 'betting';
  // Time's up (the clock moves the table within a moment): dealing, or the next round opening.
  if (!left) return [betting ? 'rooms.dealing' : 'rooms.starting'];
  if (betting) return [gameType === 'PVP' ? 'rooms.seatsOpen' : 'rooms.betsOpen', { s: left }];
  return ['rooms.next', { s: left }];
}

const asGame = (r: TRoom): TGame => ({
  nodeId: r.nodeId, vassalage: r.vassalage, gameCode: r.gameCode, isGame: 'GAME', gameType: r.gameType,
  gameClassify: null, gameName: r.gameName, iconUrl: null, maintenance: r.maintenance,
});

/**
 * The tables open now (GLS2_roomList) above a live or card category's games: each with its round, the
 * time left to bet (or until the next round), players in the round, stakes and the last results, and a
 * way in. Counts down every second against the server's clock; the list is read again every 5 s.
 */
export function RoomStrip({ gameType }: { gameType: 'LIVE' | 'PVP' }) {
  const { t } = useTranslation('games');
  const money = useMoney();
  const rooms = useRoomList(gameType, true);
  const readAt = rooms.dataUpdatedAt;
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const id = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(id);
  }, []);
  const list = rooms.data?.list ?? [];
  if (list.length === 0) return null;

  return (
    <section className="room-strip" aria-label={t('rooms.title')} data-testid="room-strip">
      <h2 className="room-strip__title">{t('rooms.title')}</h2>
      <ul className="room-strip__list">
        {list.map((r) => {
          const betting = r.phase === 'betting';
          const left = secondsLeft(betting ? r.closesAt : r.nextAt, r.serverNow, readAt, now);
          const min = r.stakes[0];
          const max = r.stakes[r.stakes.length - 1];
          return (
            <li key={r.nodeId} className="room-card" data-testid={`room-${r.gameCode}`} data-phase={r.phase ?? 'none'}>
              <div className="room-card__head">
                <span className="room-card__name">{r.gameName}</span>
                {r.roundNo !== null && <span className="room-card__round">{t('rooms.round', { n: r.roundNo })}</span>}
              </div>
              <p className={`room-card__phase${betting ? ' is-open' : ''}`} data-testid={`room-phase-${r.gameCode}`}>
                {t(...phaseText(r, gameType, left))}
              </p>
              <p className="room-card__meta">
                <span>{t('rooms.players', { count: r.players })}</span>
                {min !== undefined && max !== undefined && (
                  <span>{min === max ? t(gameType === 'PVP' ? 'rooms.ante' : 'rooms.stake', { amount: money(min) }) : t('rooms.stakes', { min: money(min), max: money(max) })}</span>
                )}
              </p>
              {r.road.length > 0 && (
                <ol className="room-card__road" aria-label={t('rooms.road')}>
                  {r.road.map((w, i) => (
                    <li key={i} className={`room-card__bead room-card__bead--${w}`} title={t(`rooms.winner.${w}`, { defaultValue: w })}>
                      {t(`rooms.bead.${w}`, { defaultValue: w.slice(0, 1).toUpperCase() })}
                    </li>
                  ))}
                </ol>
              )}
              <button
                type="button"
                className="btn btn--primary btn--sm room-card__play"
                disabled={r.maintenance}
                onClick={() => requestLaunch({ kind: 'game', game: asGame(r) })}
                data-testid={`room-play-${r.gameCode}`}
              >
                {t('rooms.join')}
              </button>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
