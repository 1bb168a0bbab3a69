import { useEffect, useRef, useState } from 'react';
import type { KeyboardEvent, PointerEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { TBotChallenge } from '../lib/auth-types';
import { BOT_PIECE_SIZE, clampLeft, toImageX } from '../lib/bot-slider';

type Props = {
  challenge: TBotChallenge;
  /** The piece's left edge in image pixels. */
  onSolved: (x: number) => void;
  onCancel: () => void;
};

/**
 * The slider bot check: drag the piece (or the handle under the picture) along its row until it
 * covers the dark hole, and let go. One try: the answer goes with the login at once.
 * Arrow keys move the handle too (Shift for 10 px), Enter lets go.
 */
export function BotCheckSlider({ challenge, onSolved, onCancel }: Props) {
  const { t } = useTranslation('auth');
  const frameRef = useRef<HTMLDivElement>(null);
  const [displayWidth, setDisplayWidth] = useState(challenge.width);
  const [left, setLeft] = useState(0);
  const drag = useRef<{ startX: number; startLeft: number } | null>(null);
  const solved = useRef(false);
  const scale = displayWidth / challenge.width;
  const piece = BOT_PIECE_SIZE * scale;

  useEffect(() => {
    const el = frameRef.current;
    if (!el) return;
    const measure = () => setDisplayWidth(el.clientWidth || challenge.width);
    measure();
    const ro = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(measure);
    ro?.observe(el);
    return () => ro?.disconnect();
  }, [challenge.width]);

  const finish = (finalLeft: number) => {
    if (solved.current) return;
    solved.current = true;
    onSolved(toImageX(finalLeft, displayWidth, challenge.width));
  };

  const onPointerDown = (e: PointerEvent<HTMLElement>) => {
    if (solved.current) return;
    e.preventDefault();
    e.currentTarget.setPointerCapture(e.pointerId);
    drag.current = { startX: e.clientX, startLeft: left };
  };
  const onPointerMove = (e: PointerEvent<HTMLElement>) => {
    if (!drag.current) return;
    setLeft(clampLeft(drag.current.startLeft + e.clientX - drag.current.startX, displayWidth, challenge.width));
  };
  const onPointerUp = (e: PointerEvent<HTMLElement>) => {
    if (!drag.current) return;
    const final = clampLeft(drag.current.startLeft + e.clientX - drag.current.startX, displayWidth, challenge.width);
    drag.current = null;
    setLeft(final);
    if (final > 0) finish(final);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLElement>) => {
    const step = e.shiftKey ? 10 : 1;
    if (e.key === 'ArrowRight' || e.key === 'ArrowLeft') {
      e.preventDefault();
      setLeft((l) => clampLeft(l + (e.key === 'ArrowRight' ? step : -step) * scale, displayWidth, challenge.width));
    } else if (e.key === 'Enter') {
      e.preventDefault();
      finish(left);
    }
  };
  const handlers = { onPointerDown, onPointerMove, onPointerUp, onPointerCancel: () => (drag.current = null) };
  const maxLeft = clampLeft(Infinity, displayWidth, challenge.width);

  return (
    <div className="bot-check" data-testid="bot-check" data-bot-id={challenge.botId}>
      <p className="bot-check__title">{t('bot_title')}</p>
      <div className="bot-check__frame" ref={frameRef} style={{ maxWidth: challenge.width }}>
        <img src={challenge.image} alt={t('bot_picture')} draggable={false} className="bot-check__img" />
        <div
          className="bot-check__piece"
          style={{ left, top: challenge.pieceY * scale, width: piece, height: piece }}
          data-testid="bot-piece"
          aria-hidden="true"
          {...handlers}
        />
      </div>
      <div className="bot-check__track" style={{ maxWidth: challenge.width }}>
        <div className="bot-check__fill" style={{ width: left + piece / 2 }} />
        <span className="bot-check__hint">{t('bot_hint')}</span>
        <div
          className="bot-check__handle"
          style={{ left, width: piece }}
          role="slider"
          tabIndex={0}
          aria-label={t('bot_slider')}
          aria-valuemin={0}
          aria-valuemax={Math.round(maxLeft)}
          aria-valuenow={Math.round(left)}
          data-testid="bot-handle"
          onKeyDown={onKeyDown}
          {...handlers}
        >
          <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true">
            <path d="M9 6l6 6-6 6" stroke="currentColor" strokeWidth="2.4" fill="none" strokeLinecap="round" strokeLinejoin="round" />
          </svg>
        </div>
      </div>
      <button type="button" className="link-btn bot-check__cancel" onClick={onCancel}>
        {t('cancel')}
      </button>
    </div>
  );
}
