import { Link } from 'react-router-dom';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TWinner } from '@portal/contracts/api/games';
import { LIMITS } from '@portal/contracts/domain/constants';
import { usePrefersReducedMotion } from '../../../lib/reduced-motion';
import { useMoney } from '../../../lib/use-money';
import { useRankList } from '../api/get-rank-list';
import { freshWinnerIds, nextScrollOffset, winnerDisplayName } from '../winner-list';
import { Icon } from './icons';
import { isPageCovered } from '../../../ui/scroll-lock';

/** How long a newly arrived winner stays highlighted, ms. */
const HIGHLIGHT_MS = 2600;

function WinnerRow({ winner, money, isFresh, isCopy }: { winner: TWinner; money: (minor: number) => string; isFresh: boolean; isCopy: boolean }) {
  const { t } = useTranslation('home');
  const [isIconBroken, setIconBroken] = useState(false);
  return (
    <li className={`winner-row${isFresh ? ' is-fresh' : ''}`} data-testid={isCopy ? undefined : 'winner-row'}>
      <span className="winner-row__icon">
        {winner.iconUrl && !isIconBroken ? (
          <img src={winner.iconUrl} alt="" loading="lazy" onError={() => setIconBroken(true)} />
        ) : (
          <Icon name="TROPHY" />
        )}
      </span>
      <span className="winner-row__who">
        <span className="winner-row__name">{winnerDisplayName(winner.customerName)}</span>
        {/* A long game name is cut to the row: the whole of it on hover. */}
        <span className="winner-row__game" title={winner.gameName}>{t('winners.inGame', { game: winner.gameName })}</span>
      </span>
      <span className="winner-row__amount">{money(winner.winAmount)}</span>
    </li>
  );
}

export function WinnerBoard() {
  const { t } = useTranslation('home');
  const { data, isPending } = useRankList();
  const money = useMoney();
  const list = data?.list ?? [];
  const isReducedMotion = usePrefersReducedMotion();

  const viewportRef = useRef<HTMLDivElement>(null);
  const trackRef = useRef<HTMLDivElement>(null);
  const firstCopyRef = useRef<HTMLUListElement>(null);
  const offsetRef = useRef(0);
  const isPausedRef = useRef(false);
  /** performance.now() until which the scroller holds still so newcomers stay in view. */
  const holdUntilRef = useRef(0);
  const [isOverflowing, setOverflowing] = useState(false);

  // Newly arrived winners: highlight them for a moment and scroll back so they show at the top.
  const previousRef = useRef<readonly TWinner[] | undefined>(undefined);
  const [fresh, setFresh] = useState<ReadonlySet<string>>(new Set());
  const timersRef = useRef<Set<ReturnType<typeof setTimeout>>>(new Set());
  useEffect(() => {
    if (!data) return;
    const ids = freshWinnerIds(previousRef.current, data.list);
    previousRef.current = data.list;
    if (ids.length === 0) return;
    offsetRef.current = 0;
    holdUntilRef.current = performance.now() + HIGHLIGHT_MS;
    setFresh((cur) => new Set([...cur, ...ids]));
    const timer = setTimeout(() => {
      timersRef.current.delete(timer);
      setFresh((cur) => new Set([...cur].filter((id) => !ids.includes(id))));
    }, HIGHLIGHT_MS);
    timersRef.current.add(timer);
  }, [data]);
  useEffect(() => {
    const timers = timersRef.current;
    return () => timers.forEach(clearTimeout);
  }, []);

  // The list is drawn twice only when it is taller than the window, so the loop has no seam.
  useLayoutEffect(() => {
    const first = firstCopyRef.current;
    const viewport = viewportRef.current;
    if (!first || !viewport) return;
    const measure = () => setOverflowing(first.offsetHeight > viewport.clientHeight + 1);
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(first);
    ro.observe(viewport);
    return () => ro.disconnect();
  }, [list.length]);

  const isScrolling = isOverflowing && !isReducedMotion;

  useEffect(() => {
    const track = trackRef.current;
    const first = firstCopyRef.current;
    if (!isScrolling || !track || !first) {
      offsetRef.current = 0;
      if (track) track.style.transform = '';
      return;
    }
    let frame = 0;
    const tick = (now: number) => {
      // Nor behind an open dialog (scroll-lock.ts): no frame is drawn for a covered page.
      if (isPageCovered()) {
        frame = requestAnimationFrame(tick);
        return;
      }
      if (!isPausedRef.current && now >= holdUntilRef.current) {
        offsetRef.current = nextScrollOffset(offsetRef.current, LIMITS.WINNER_SCROLL_STEP, first.offsetHeight);
      }
      track.style.transform = `translate3d(0, ${-offsetRef.current}px, 0)`;
      frame = requestAnimationFrame(tick);
    };
    frame = requestAnimationFrame(tick);
    return () => cancelAnimationFrame(frame);
  }, [isScrolling]);

  const pause = (isPaused: boolean) => () => {
    isPausedRef.current = isPaused;
  };

  return (
    <section className="home-winners" data-testid="home-winners" aria-labelledby="home-winners-title">
      <header className="home-winners__head">
        <span className="home-winners__icon"><Icon name="TROPHY" /></span>
        {/* The live mark under the title, not beside it: in Tagalog the title, "Tingnan lahat" and the
            mark in one row left the title a third of the panel (three lines). */}
        <div className="home-winners__heading">
          <h2 id="home-winners-title" className="home-winners__title">{t('winners.title')}</h2>
          <span className="home-winners__live">
            <span className="home-winners__dot" aria-hidden="true" />
            {t('winners.live')}
          </span>
        </div>
        <Link to="/winners" className="home-winners__all" data-testid="home-winners-all">{t('winners.all')}</Link>
      </header>
      <div
        ref={viewportRef}
        className={`home-winners__viewport${isReducedMotion ? ' is-static' : ''}`}
        onMouseEnter={pause(true)}
        onMouseLeave={pause(false)}
        onFocus={pause(true)}
        onBlur={pause(false)}
      >
        {isPending ? (
          <ul className="winner-list">
            {Array.from({ length: 6 }, (_, i) => <li key={i} className="winner-row winner-row--skeleton skeleton" />)}
          </ul>
        ) : list.length === 0 ? (
          <p className="home-winners__empty">{t('winners.empty')}</p>
        ) : (
          <div ref={trackRef} className="home-winners__track">
            <ul ref={firstCopyRef} className="winner-list">
              {list.map((w) => <WinnerRow key={w.id} winner={w} money={money} isFresh={fresh.has(w.id)} isCopy={false} />)}
            </ul>
            {isScrolling && (
              <ul className="winner-list" aria-hidden="true">
                {list.map((w) => <WinnerRow key={w.id} winner={w} money={money} isFresh={fresh.has(w.id)} isCopy />)}
              </ul>
            )}
          </div>
        )}
      </div>
    </section>
  );
}
