import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorKey } from '../../../lib/error-key';

const SUITS = ['♠', '♥', '♦', '♣'];
const RANKS = ['A', '2', '3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K'];

/** A playing card from its index 0-51 (suit = index / 13, rank = index % 13). */
export function Card({ c }: { c: number }) {
  const suit = Math.floor(c / 13);
  return (
    <span className={`hb-card${suit === 1 || suit === 2 ? ' is-red' : ''}`}>
      {RANKS[c % 13]}
      <small>{SUITS[suit]}</small>
    </span>
  );
}

/**
 * A house table whose rounds run on the server: its state polled every second, a local clock ticking
 * every 200 ms and corrected by the server's time, the balance passed up on every state.
 */
export function useTimedTable<S extends { serverNow: string; balance: number }>(load: () => Promise<S>, onBalance: (balance: number) => void) {
  const { t } = useTranslation('house');
  const [state, setState] = useState<S | null>(null);
  const [offset, setOffset] = useState(0);
  const [now, setNow] = useState(() => Date.now());
  const [error, setError] = useState<string | null>(null);
  const [isBusy, setBusy] = useState(false);
  const onBalanceRef = useRef(onBalance);
  onBalanceRef.current = onBalance;

  const apply = (s: S) => {
    setState(s);
    setOffset(Date.parse(s.serverNow) - Date.now());
    onBalanceRef.current(s.balance);
  };

  useEffect(() => {
    let alive = true;
    const poll = () => load().then((s) => alive && apply(s)).catch((e: unknown) => alive && setError(t(`common:${errorKey(e)}`)));
    poll();
    const id = window.setInterval(poll, 1000);
    const clock = window.setInterval(() => setNow(Date.now()), 200);
    return () => {
      alive = false;
      window.clearInterval(id);
      window.clearInterval(clock);
    };
    // the table is polled from mount to unmount; `load` is a module function
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  /** The server's clock now. */
  const serverNow = now + offset;
  return { state, apply, serverNow, error, setError, isBusy, setBusy };
}
