import { useEffect, useState, type CSSProperties } from 'react';
import { LIMITS } from '@portal/contracts/domain/constants';
import { formatRollerValue, startRoller } from './number-roller-steps';
import './number-roller.css';

type NumberRollerProps = {
  /** Fixed start value; otherwise a random start between min and max. */
  value?: number;
  min?: number;
  max?: number;
  decimals?: number;
  /** Height of one digit row, px; the font scales with it. */
  rowHeight?: number;
  /** Shown before the number, e.g. a currency symbol. */
  prefix?: string;
  className?: string;
};

const DIGITS = ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9'];

/**
 * A decorative counter (spec section 4, not a server value): it climbs by 1000-1500
 * every 3, 4 or 5 seconds and each digit rolls to its new place on its own.
 */
export function NumberRoller({
  value,
  min = LIMITS.JACKPOT_DEFAULT_MIN,
  max = LIMITS.JACKPOT_DEFAULT_MAX,
  decimals = 0,
  rowHeight = LIMITS.JACKPOT_ROW_HEIGHT,
  prefix,
  className,
}: NumberRollerProps) {
  const [scaled, setScaled] = useState<number | null>(null);

  useEffect(() => startRoller({ value, min, max, decimals }, setScaled), [value, min, max, decimals]);

  const style = { '--roller-row': `${rowHeight}px` } as CSSProperties;
  if (scaled === null) return <span className={`roller ${className ?? ''}`} style={style} />;

  const text = formatRollerValue(scaled, decimals);
  const chars = [...text];

  return (
    <span className={`roller ${className ?? ''}`} style={style} role="img" aria-label={`${prefix ?? ''}${text}`}>
      {prefix && <span className="roller__prefix" aria-hidden="true">{prefix}</span>}
      {chars.map((ch, i) => {
        // Keyed from the right so a column keeps its identity when the number gains a digit.
        const place = chars.length - i;
        const digit = DIGITS.indexOf(ch);
        if (digit < 0) {
          return <span key={`s${place}`} className="roller__sep" aria-hidden="true">{ch}</span>;
        }
        return (
          <span key={`d${place}`} className="roller__cell" aria-hidden="true">
            <span
              className="roller__column"
              style={{ transform: `translateY(calc(${-digit} * var(--roller-row)))`, transitionDelay: `${place * 45}ms` }}
            >
              {DIGITS.map((d) => <span key={d} className="roller__digit">{d}</span>)}
            </span>
          </span>
        );
      })}
    </span>
  );
}
