import { useTranslation } from 'react-i18next';
/** The reel symbols drawn as small SVGs (no emoji fonts needed); the wild coin bears the merchant's currency sign. */
export function SlotSymbol({ s, coin = '₱' }: { s: string; coin?: string }) {
  // Named in the page's language (screen readers read "cherries" in TY).
  const { t } = useTranslation('house');
  switch (s) {
    case 'W':
      return (
        <svg viewBox="0 0 40 40" className="hs-sym" aria-label={t('sym_wild')}>
          <circle cx="20" cy="20" r="17" fill="#f5c542" stroke="#b8860b" strokeWidth="3" />
          <text x="20" y="26" textAnchor="middle" fontSize="16" fontWeight="900" fill="#7a4f00">{coin}</text>
          <text x="20" y="37" textAnchor="middle" fontSize="7" fontWeight="900" fill="#7a4f00">WILD</text>
        </svg>
      );
    case '7':
      return (
        <svg viewBox="0 0 40 40" className="hs-sym" aria-label={t('sym_seven')}>
          <text x="20" y="33" textAnchor="middle" fontSize="34" fontWeight="900" fill="#e0245e" stroke="#7a0b2e" strokeWidth="1.5">7</text>
        </svg>
      );
    case 'B':
      return (
        <svg viewBox="0 0 40 40" className="hs-sym" aria-label={t('sym_bar')}>
          <rect x="3" y="12" width="34" height="16" rx="3" fill="#222" stroke="#ddd" strokeWidth="2" />
          <text x="20" y="25" textAnchor="middle" fontSize="11" fontWeight="900" fill="#fff">BAR</text>
        </svg>
      );
    case 'L':
      return (
        <svg viewBox="0 0 40 40" className="hs-sym" aria-label={t('sym_bell')}>
          <path d="M20 5c-7 0-10 6-10 13v7l-4 5h28l-4-5v-7c0-7-3-13-10-13z" fill="#ffcc33" stroke="#b8860b" strokeWidth="2" />
          <circle cx="20" cy="33" r="3.5" fill="#b8860b" />
        </svg>
      );
    case 'M':
      return (
        <svg viewBox="0 0 40 40" className="hs-sym" aria-label={t('sym_melon')}>
          <path d="M4 14h32a16 16 0 0 1-32 0z" fill="#2e9e44" />
          <path d="M7 14h26a13 13 0 0 1-26 0z" fill="#ff4d6d" />
          <circle cx="15" cy="19" r="1.4" fill="#222" /><circle cx="20" cy="22" r="1.4" fill="#222" /><circle cx="25" cy="19" r="1.4" fill="#222" />
        </svg>
      );
    case 'G':
      return (
        <svg viewBox="0 0 40 40" className="hs-sym" aria-label={t('sym_grapes')}>
          {[[14, 12], [22, 12], [30, 12], [18, 19], [26, 19], [22, 26], [14, 26], [18, 33]].map(([x, y]) => (
            <circle key={`${x}-${y}`} cx={x! - 2} cy={y} r="5" fill="#7b3fe4" stroke="#4b1fa4" strokeWidth="1" />
          ))}
        </svg>
      );
    case 'O':
      return (
        <svg viewBox="0 0 40 40" className="hs-sym" aria-label={t('sym_orange')}>
          <circle cx="20" cy="22" r="14" fill="#ff8c1a" stroke="#c65f00" strokeWidth="2" />
          <path d="M20 8c3-4 8-4 10-2-3 2-6 3-10 2z" fill="#2e9e44" />
        </svg>
      );
    default:
      return (
        <svg viewBox="0 0 40 40" className="hs-sym" aria-label={t('sym_cherries')}>
          <path d="M13 26c2-10 7-16 15-20M27 27c-1-9 0-15 1-21" stroke="#2e7d32" strokeWidth="2" fill="none" />
          <circle cx="12" cy="29" r="7" fill="#d7263d" />
          <circle cx="27" cy="30" r="7" fill="#b5172c" />
        </svg>
      );
  }
}
