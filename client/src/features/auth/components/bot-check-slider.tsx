import { useEffect, useId, useRef, useState } from 'react';
import type { KeyboardEvent, PointerEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { TBotChallenge } from '../lib/auth-types';
import { BOT_PIECE_SIZE, clampLeft, clampTop, toImageX, toImageY } from '../lib/bot-slider';
// Its styles (bot-check__*): also shown by the registration form, whose chunk has no login form.
import './auth.css';

type Props = {
  challenge: TBotChallenge;
  /** The piece's left and top edges in image pixels. */
  onSolved: (x: number, y: number) => void;
  onCancel: () => void;
};

/**
 * The slider bot check: drag the piece until it covers the dark hole, and let go. The hole may be
 * above or below the piece's row, so the piece moves both ways; the handle under the picture moves
 * it across. One try: the answer goes with the login at once.
 * Arrow keys move the piece too (Shift for 10 px), Enter lets go.
 */
export function BotCheckSlider({ challenge, onSolved, onCancel }: Props) {
  const { t } = useTranslation('auth');
  const frameRef = useRef<HTMLDivElement>(null);
  const handleRef = useRef<HTMLDivElement>(null);
  const keysId = useId();
  const [displayWidth, setDisplayWidth] = useState(challenge.width);
  const [left, setLeft] = useState(0);
  const [top, setTop] = useState(challenge.pieceY);
  /** `vertical`: the piece itself is dragged (both ways); the handle moves across only. */
  const drag = useRef<{ startX: number; startY: number; startLeft: number; startTop: number; vertical: boolean } | null>(null);
  const solved = useRef(false);
  const scale = displayWidth / challenge.width;
  const piece = BOT_PIECE_SIZE * scale;

  // The handle takes the focus when the check appears: a keyboard user moves the piece at once (the focus
  // stayed in the password field, with nothing saying the check could be done without a mouse).
  useEffect(() => {
    handleRef.current?.focus({ preventScroll: true });
  }, [challenge.botId]);

  useEffect(() => {
    const el = frameRef.current;
    if (!el) return;
    const measure = () => setDisplayWidth(el.clientWidth || challenge.width);
    measure();
    const ro = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(measure);
    ro?.observe(el);
    return () => ro?.disconnect();
  }, [challenge.width]);

  // `top` is kept in image pixels (the row does not depend on the drawn size); `left` in screen pixels.
  const finish = (finalLeft: number, finalTop: number) => {
    if (solved.current) return;
    solved.current = true;
    onSolved(toImageX(finalLeft, displayWidth, challenge.width), toImageY(finalTop * scale, displayWidth, challenge.width, challenge.height));
  };

  const start = (vertical: boolean) => (e: PointerEvent<HTMLElement>) => {
    if (solved.current) return;
    e.preventDefault();
    e.currentTarget.setPointerCapture(e.pointerId);
    drag.current = { startX: e.clientX, startY: e.clientY, startLeft: left, startTop: top, vertical };
  };
  const positionOf = (e: PointerEvent<HTMLElement>, d: NonNullable<typeof drag.current>) => ({
    left: clampLeft(d.startLeft + e.clientX - d.startX, displayWidth, challenge.width),
    top: d.vertical ? clampTop((d.startTop * scale + e.clientY - d.startY), displayWidth, challenge.width, challenge.height) / scale : d.startTop,
  });
  const onPointerMove = (e: PointerEvent<HTMLElement>) => {
    if (!drag.current) return;
    const p = positionOf(e, drag.current);
    setLeft(p.left);
    setTop(p.top);
  };
  const onPointerUp = (e: PointerEvent<HTMLElement>) => {
    if (!drag.current) return;
    const p = positionOf(e, drag.current);
    drag.current = null;
    setLeft(p.left);
    setTop(p.top);
    if (p.left > 0) finish(p.left, p.top);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLElement>) => {
    const step = e.shiftKey ? 10 : 1;
    if (e.key === 'ArrowRight' || e.key === 'ArrowLeft') {
      e.preventDefault();
      setLeft((l) => clampLeft(l + (e.key === 'ArrowRight' ? step : -step) * scale, displayWidth, challenge.width));
    } else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      setTop((y) => Math.min(Math.max(0, y + (e.key === 'ArrowDown' ? step : -step)), challenge.height - BOT_PIECE_SIZE));
    } else if (e.key === 'Enter') {
      e.preventDefault();
      finish(left, top);
    }
  };
  const common = { onPointerMove, onPointerUp, onPointerCancel: () => (drag.current = null) };
  const pieceHandlers = { ...common, onPointerDown: start(true) };
  const handleHandlers = { ...common, onPointerDown: start(false) };
  const maxLeft = clampLeft(Infinity, displayWidth, challenge.width);

  return (
    <div className="bot-check" data-testid="bot-check" data-bot-id={challenge.botId}>
      <p className="bot-check__title">{t('bot_title')}</p>
      <div className="bot-check__frame" ref={frameRef} style={{ maxWidth: challenge.width }}>
        <img src={challenge.image} alt={t('bot_picture')} draggable={false} className="bot-check__img" />
        <div
          className="bot-check__piece"
          style={{ left, top: top * scale, width: piece, height: piece }}
          data-testid="bot-piece"
          aria-hidden="true"
          {...pieceHandlers}
        />
      </div>
      <div className="bot-check__track" style={{ maxWidth: challenge.width }}>
        <div className="bot-check__fill" style={{ width: left + piece / 2 }} />
        <span className="bot-check__hint">{t('bot_hint')}</span>
        <div
          ref={handleRef}
          className="bot-check__handle"
          style={{ left, width: piece }}
          role="slider"
          tabIndex={0}
          aria-label={t('bot_slider')}
          aria-describedby={keysId}
          aria-valuemin={0}
          aria-valuemax={Math.round(maxLeft)}
          aria-valuenow={Math.round(left)}
          aria-valuetext={t('bot_position', { x: Math.round(left), y: Math.round(top) })}
          data-testid="bot-handle"
          onKeyDown={onKeyDown}
          {...handleHandlers}
        >
          <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true">
            <path d="M9 6l6 6-6 6" stroke="currentColor" strokeWidth="2.4" fill="none" strokeLinecap="round" strokeLinejoin="round" />
          </svg>
        </div>
      </div>
      <p className="bot-check__keys" id={keysId}>{t('bot_keys')}</p>
      <button type="button" className="link-btn bot-check__cancel" onClick={onCancel}>
        {t('cancel')}
      </button>
    </div>
  );
}
