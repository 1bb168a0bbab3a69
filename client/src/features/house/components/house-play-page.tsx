import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import { HOUSE_GAME_CODES, type THouseGameCode, type THouseSession, type TRotateSeedValue, type TSpinResult } from '@portal/contracts/api/house';
import { hideBootLoader } from '../../../lib/boot-loader';
import { useWhitelabel } from '../../../lib/whitelabel';
import { errorKey } from '../../../lib/error-key';
import { useCurrency, useMoney } from '../../../lib/use-money';
import { markHouseSessionEnded, setHouseSession, useHouseSessionEnded } from '../api/house-call';
import { useHouseBalanceRefresh } from '../api/balance-refresh';
import { getHouseState, openFreePlay, openHouseSession, rotateSeed, spinSlot } from '../api/house-ops';
import { relaunchHouseGame } from '../api/relaunch';
import { startHouseSession } from '../api/start-session';
import { BaccaratTable } from './baccarat-table';
import { FishPond } from './fish-pond';
import { Lucky9Table } from './lucky9-table';
import { SlotSymbol } from './slot-symbol';
import '../house.css';
import { useRgExclusion } from '../../../lib/rg-exclusion';
import { ExclusionNotice } from '../../../ui/exclusion-notice';

const SYMBOLS = ['W', '7', 'B', 'L', 'M', 'G', 'O', 'C'];
const randomGrid = () => Array.from({ length: 5 }, () => Array.from({ length: 3 }, () => SYMBOLS[Math.floor(Math.random() * SYMBOLS.length)]!));

/**
 * /house/play?token=…&game=…&vendor=HOUSE (or ?game=…&mode=free): the house game page, rendered
 * alone. The token is a one-time launch code for this game: traded (once) for a house session and
 * removed from the address bar. When the game session ends the page drops it and says so.
 */
export function HousePlayPage() {
  const [params] = useSearchParams();
  const exclusion = useRgExclusion();
  // A link with no game or one that is not a house game names none: it says so and starts nothing
  // (it opened the slot, with a real-money session and a place in the recent games).
  const game = params.get('game');
  if (game === null || !(HOUSE_GAME_CODES as readonly string[]).includes(game)) return <UnknownHouseGame />;
  // A signed-in player under an exclusion plays nothing here, play money included (a bookmarked
  // mode=free link opened the slot; the game cards already say so).
  if (exclusion) return <ExcludedFromHouse exclusion={exclusion} />;
  // Back/forward between two games' pages keeps this route mounted: each game starts afresh.
  return <HouseGamePage key={`${game}:${params.get('mode') ?? ''}`} />;
}

/** The house page's way back to the portal (it has no portal header). */
function BackToPortal() {
  const { t } = useTranslation('house');
  return (
    <Link to="/" className="hs-back" data-testid="house-back">
      <span aria-hidden="true">‹</span> {t('back_to_portal')}
    </Link>
  );
}

function ExcludedFromHouse({ exclusion }: { exclusion: { kind: string; until: string | null } }) {
  useEffect(() => hideBootLoader(), []);
  return (
    <main className="hs-page" data-testid="house-excluded">
      <BackToPortal />
      <ExclusionNotice exclusion={exclusion} place="games" />
    </main>
  );
}

function UnknownHouseGame() {
  const { t } = useTranslation('house');
  useEffect(() => hideBootLoader(), []);
  return (
    <div className="hs-page" data-testid="house-page">
      <header className="hs-top">
        <BackToPortal />
      </header>
      <p className="hs-error" role="alert" data-testid="house-unknown-game">{t('unknown_game')}</p>
    </div>
  );
}

function HouseGamePage() {
  const { t } = useTranslation('house');
  const money = useMoney();
  const coin = useCurrency().symbol || '₱';
  const [params] = useSearchParams();
  // HousePlayPage let only a house game's code through.
  const game = params.get('game') as THouseGameCode;
  const [session, setSession] = useState<THouseSession | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [stake, setStake] = useState(100);
  const [grid, setGrid] = useState<string[][]>(randomGrid);
  const [spinning, setSpinning] = useState<boolean[]>([false, false, false, false, false]);
  const [last, setLast] = useState<TSpinResult | null>(null);
  const [revealed, setRevealed] = useState<TRotateSeedValue | null>(null);
  const [clientSeed, setClientSeed] = useState('');
  const [isBusy, setBusy] = useState(false);
  const [needLogin, setNeedLogin] = useState(false);
  // The game did not open (in maintenance, an unknown launch...): the page says why, and shows no
  // half-loaded game ("Loading…", a balance of "—" and a SPIN button under the refusal).
  const [startFailed, setStartFailed] = useState(false);
  const isClosed = startFailed && !session;
  const timers = useRef<number[]>([]);
  // Lucky 9 Duel is played for real money against other players: no free play.
  const pvpFree = game === 'PVP1' && params.get('mode') === 'free';
  // The wallet refused the game session (logout, password change, disabled, exclusion): logged out.
  const isEnded = useHouseSessionEnded();
  // The wallet's balance while the page is open (money moved elsewhere), and a session ended elsewhere (a sign-out).
  const busyRef = useRef(false);
  busyRef.current = isBusy;
  useHouseBalanceRefresh(session, {
    state: getHouseState,
    ended: markHouseSessionEnded,
    balance: (balance) => setSession((s) => (s && s.balance !== balance ? { ...s, balance } : s)),
    isBusy: () => busyRef.current,
  });
  // The page has no portal layout (which titles every other page): the tab names the game and the site.
  const site = useWhitelabel().data?.brand.siteName ?? '';
  // Before a session: Lucky 9 Duel without one (play money refused, or a guest asked to log in) names itself.
  const gameTitle = session?.gameName ?? (pvpFree || needLogin ? 'Lucky 9 Duel' : t('page_title'));
  useEffect(() => {
    document.title = [gameTitle, site].filter(Boolean).join(' | ');
  }, [gameTitle, site]);
  useEffect(() => {
    if (!isEnded) return;
    setSession(null);
    setError(t('common:error_GAME_TOKEN_INVALID'));
  }, [isEnded, t]);

  useEffect(() => {
    hideBootLoader();
    let alive = true;
    const token = params.get('token');
    const isFree = params.get('mode') === 'free';
    if (pvpFree) return;
    const start = async () => {
      const r = await startHouseSession({ game, code: token, isFree }, { open: openHouseSession, freePlay: openFreePlay, state: getHouseState, relaunch: relaunchHouseGame });
      // The launch token is a credential: keep the house session instead and clean the address bar.
      if (token) window.history.replaceState(null, '', `/house/play?game=${game}`);
      return r;
    };
    start()
      .then((r) => {
        if (!alive) return;
        if (r.kind === 'login') {
          setNeedLogin(true);
          return;
        }
        const s = r.session;
        setHouseSession(s.session);
        setSession(s);
        setClientSeed(s.fair.clientSeed);
        setStake(s.stakes[0] ?? 100);
      })
      .catch((e: unknown) => {
        if (!alive) return;
        setStartFailed(true);
        setError(t(`common:${errorKey(e)}`));
      });
    return () => {
      alive = false;
      timers.current.forEach((id) => window.clearTimeout(id));
    };
    // Start once per page load.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const spin = async () => {
    if (!session || isBusy) return;
    setBusy(true);
    setError(null);
    setLast(null);
    setSpinning([true, true, true, true, true]);
    const spinningRef = { current: [true, true, true, true, true] };
    const shuffle = window.setInterval(() => setGrid((g) => g.map((col, i) => (spinningRef.current[i] ? randomGrid()[i]! : col))), 70);
    try {
      const [r] = await Promise.all([spinSlot(stake), new Promise((res) => window.setTimeout(res, 450))]);
      // Reels stop left to right.
      for (let i = 0; i < 5; i++) {
        await new Promise((res) => timers.current.push(window.setTimeout(res, 160)));
        spinningRef.current[i] = false;
        setGrid((g) => g.map((col, j) => (j === i ? r.grid[i]! : col)));
        setSpinning((s) => s.map((v, j) => (j === i ? false : v)));
      }
      setLast(r);
      setSession((s) => (s ? { ...s, balance: r.balance, fair: { ...s.fair, nonce: r.nonce } } : s));
    } catch (e) {
      setError(t(`common:${errorKey(e)}`));
      setSpinning([false, false, false, false, false]);
    } finally {
      window.clearInterval(shuffle);
      setBusy(false);
    }
  };

  const newSeed = async () => {
    if (!session) return;
    try {
      const r = await rotateSeed(clientSeed.trim() || undefined);
      setRevealed(r);
      setSession((s) => (s ? { ...s, fair: r.fair } : s));
      setClientSeed(r.fair.clientSeed);
    } catch (e) {
      setError(t(`common:${errorKey(e)}`));
    }
  };

  const winningCells = new Set<string>();
  if (last) {
    for (const l of last.lines) for (let reel = 0; reel < l.count; reel++) winningCells.add(`${reel}:${LINES[l.line]![reel]}`);
  }

  /** The fish game's rounds are shots, the slot's spins (i18next context: fair_hint_fish, nonce_fish, ...). */
  const fairContext = game === 'FISH1' ? 'fish' : undefined;
  const fairPanel = (
    <section className="hs-fair" data-testid="house-fair">
      <h2>{t('fair_title')}</h2>
      <p className="hs-small hs-muted">{t('fair_hint', { context: fairContext })}</p>
      <dl>
        <dt>{t('server_seed_hash')}</dt>
        <dd className="hs-mono" data-testid="house-seed-hash">{session?.fair.serverSeedHash ?? '—'}</dd>
        <dt>{t('nonce', { context: fairContext })}</dt>
        <dd className="hs-mono">{session?.fair.nonce ?? 0}</dd>
      </dl>
      <label className="hs-field">
        <span>{t('client_seed')}</span>
        <input value={clientSeed} maxLength={64} onChange={(e) => setClientSeed(e.target.value.replace(/[^A-Za-z0-9_.:-]/g, ''))} data-testid="house-client-seed" />
      </label>
      <button type="button" className="hs-chip" onClick={newSeed} disabled={!session || isBusy} data-testid="house-rotate">
        {t('rotate_seed')}
      </button>
      {revealed && (
        <dl className="hs-revealed" data-testid="house-revealed">
          <dt>{t('revealed_seed')}</dt>
          <dd className="hs-mono">{revealed.revealedServerSeed}</dd>
          <dt>{t('revealed_hash')}</dt>
          <dd className="hs-mono">{revealed.revealedHash}</dd>
          <dd className="hs-small">{t('revealed_rounds', { count: revealed.rounds, context: fairContext })}</dd>
        </dl>
      )}
    </section>
  );

  return (
    <div className="hs-page" data-testid="house-page">
      <header className="hs-top">
        <BackToPortal />
        <h1 className="hs-title">{session || pvpFree || needLogin || isClosed ? gameTitle : t('loading')}</h1>
        {session?.freePlay && <span className="hs-badge" data-testid="house-free-play">{t('free_play')}</span>}
        {!pvpFree && !isClosed && (
          <div className="hs-balance">
            <span className="hs-muted">{session?.freePlay ? t('play_balance') : t('balance')}</span>
            <strong data-testid="house-balance">{session ? money(session.balance) : '—'}</strong>
          </div>
        )}
      </header>
      {error && <p className="hs-error" role="alert" data-testid="house-error" data-ended={isEnded || undefined}>{error}</p>}
      {needLogin && (
        <p className="hs-error" role="alert" data-testid="house-need-login">
          {t('login_to_play')} <Link to="/login" className="hs-link">{t('common:w_login')}</Link>
        </p>
      )}
      {pvpFree ? (
        <p className="l9-notice" data-testid="pvp-real-money-only">{t('pvp_real_money_only')}</p>
      ) : isClosed ? null : game === 'PVP1' ? (
        session && <Lucky9Table onBalance={(balance) => setSession((s) => (s && s.balance !== balance ? { ...s, balance } : s))} />
      ) : game === 'BACC1' ? (
        session && <BaccaratTable onBalance={(balance) => setSession((s) => (s && s.balance !== balance ? { ...s, balance } : s))} />
      ) : game === 'FISH1' ? (
        session && (
          <main className="hs-main">
            <FishPond session={session} onBalance={(balance, nonce) => setSession((s) => (s ? { ...s, balance, fair: { ...s.fair, nonce } } : s))} />
            {fairPanel}
          </main>
        )
      ) : (
        <main className="hs-main">
          <div className="hs-machine">
            <div className="hs-reels" data-testid="house-reels">
              {grid.map((col, reel) => (
                <div key={reel} className={`hs-reel${spinning[reel] ? ' is-spinning' : ''}`}>
                  {col.map((s, row) => (
                    <div key={row} className={`hs-cell${winningCells.has(`${reel}:${row}`) ? ' is-win' : ''}`}>
                      <SlotSymbol s={s} coin={coin} />
                    </div>
                  ))}
                </div>
              ))}
            </div>
            <div className="hs-win" data-testid="house-win" aria-live="polite">
              {last ? (last.win > 0 ? <span className={last.bigWin ? 'hs-win--big' : ''}>{last.bigWin ? t('big_win') : t('win')} {money(last.win)}</span> : <span className="hs-muted">{t('no_win')}</span>) : <span className="hs-muted">{t('good_luck')}</span>}
            </div>
            {last && last.lines.length > 0 && (
              <ul className="hs-lines">
                {last.lines.map((l) => (
                  <li key={l.line}>{t('line_win', { line: l.line + 1, count: l.count, pay: l.pay })}</li>
                ))}
              </ul>
            )}
            <div className="hs-controls">
              <div className="hs-stakes" role="group" aria-label={t('stake')}>
                {(session?.stakes ?? []).map((s) => (
                  <button key={s} type="button" className="hs-chip" aria-pressed={stake === s} onClick={() => setStake(s)} disabled={isBusy} data-testid={`house-stake-${s}`}>
                    {money(s)}
                  </button>
                ))}
              </div>
              <button type="button" className="hs-spin" onClick={spin} disabled={!session || isBusy} data-testid="house-spin">
                {isBusy ? t('spinning') : t('spin')}
              </button>
            </div>
            {session?.rtp != null && <p className="hs-muted hs-small">{t('rtp', { rtp: (session.rtp * 100).toFixed(2) })}</p>}
          </div>
          {fairPanel}
        </main>
      )}
    </div>
  );
}

/** Row per reel of each payline (mirrors the server's paylines, for highlighting only). */
const LINES = [
  [1, 1, 1, 1, 1], [0, 0, 0, 0, 0], [2, 2, 2, 2, 2], [0, 1, 2, 1, 0], [2, 1, 0, 1, 2],
  [1, 0, 0, 0, 1], [1, 2, 2, 2, 1], [0, 0, 1, 2, 2], [2, 2, 1, 0, 0], [1, 2, 1, 0, 1],
];
