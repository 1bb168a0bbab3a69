import type { GameType } from '@portal/contracts/domain/constants';

export type IconName =
  | GameType
  | 'HOT' | 'TROPHY' | 'MEGAPHONE' | 'PLAY' | 'GAMES' | 'SLOTS' | 'HEADSET' | 'SHIELD' | 'PHONE' | 'APPLE' | 'ANDROID' | 'ARROW';

/** Stroke icons (24 x 24 grid) drawn with currentColor. */
const PATHS: Record<IconName, string> = {
  LIVE: 'M3 7a2 2 0 012-2h9a2 2 0 012 2v10a2 2 0 01-2 2H5a2 2 0 01-2-2zM16 10l5-3v10l-5-3',
  RNG: 'M4 4h16a1 1 0 011 1v14a1 1 0 01-1 1H4a1 1 0 01-1-1V5a1 1 0 011-1zM9 4v16M15 4v16M5 10h2.5L6 14M11 10h2.5L12 14M17 10h2.5L18 14',
  FISH: 'M2 12c3-5 10-6.5 14-2l5-3v10l-5-3c-4 4.5-11 3-14-2zM7.5 11.5h.01',
  PVP: 'M5 3h9a2 2 0 012 2v12a2 2 0 01-2 2H5a2 2 0 01-2-2V5a2 2 0 012-2zM19 7l1.6.6a1.5 1.5 0 01.9 1.9L18 19.5M9.5 7.5c-2 2.2-3 3.4-3 4.6a1.7 1.7 0 003 1.1 1.7 1.7 0 003-1.1c0-1.2-1-2.4-3-4.6z',
  SPORTS: 'M12 3a9 9 0 110 18 9 9 0 010-18zM12 7.5l4 2.9-1.5 4.6h-5L8 10.4zM12 3v4.5M16 10.4l4.5-1.4M14.5 15l2.8 3.8M9.5 15l-2.8 3.8M8 10.4L3.5 9',
  ESPORTS: 'M7 7h10a5 5 0 015 5v1a4 4 0 01-7 2.6L14 14h-4l-1 1.6A4 4 0 012 13v-1a5 5 0 015-5zM7 10v4M5 12h4M16 11h.01M18 13h.01',
  LOTT: 'M8 5a4 4 0 110 8 4 4 0 010-8zM16 5a4 4 0 110 8 4 4 0 010-8zM12 12a4 4 0 110 8 4 4 0 010-8z',
  ELOTT: 'M4 6h16v4a2 2 0 000 4v4H4v-4a2 2 0 000-4zM10 6v12M14 9.5h3M14 14.5h3',
  COCKFIGHT: 'M7 4h10v4a5 5 0 01-10 0zM7 6H4a3 3 0 003 4M17 6h3a3 3 0 01-3 4M12 13v4M8 21h8M9 17h6',
  HOT: 'M12 2.5c.8 3.7 5.5 5.6 5.5 11a5.5 5.5 0 01-11 0c0-3 1.6-4.6 2.2-6.8 1.5 1 2.3 2.4 2.3 4.3 1-1.6 1.4-4.6 1-8.5z',
  TROPHY: 'M7 4h10v4a5 5 0 01-10 0zM7 6H4a3 3 0 003 4M17 6h3a3 3 0 01-3 4M12 13v4M8 21h8M9 17h6',
  MEGAPHONE: 'M3 10v4a1 1 0 001 1h3l6 4V5L7 9H4a1 1 0 00-1 1zM17 8.5a5 5 0 010 7M19.5 6a8.5 8.5 0 010 12',
  PLAY: 'M12 3a9 9 0 110 18 9 9 0 010-18zM10 8.5v7l6-3.5z',
  GAMES: 'M4 4h7v7H4zM13 4h7v7h-7zM4 13h7v7H4zM13 13h7v7h-7z',
  SLOTS: 'M5 3h12a2 2 0 012 2v14a2 2 0 01-2 2H5a2 2 0 01-2-2V5a2 2 0 012-2zM3 9h16M3 15h16M21 7v6M8 11.2h1.5L8.5 13M12 11.2h1.5l-1 1.8',
  HEADSET: 'M4 14v-2a8 8 0 0116 0v2M4 14a2 2 0 012-2h1v6H6a2 2 0 01-2-2zM20 14a2 2 0 00-2-2h-1v6h1a2 2 0 002-2zM17 18c0 1.7-2 3-5 3',
  SHIELD: 'M12 3l8 3v6c0 4.5-3.4 8.2-8 9-4.6-.8-8-4.5-8-9V6zM8.5 12l2.5 2.5 4.5-5',
  PHONE: 'M8 2h8a2 2 0 012 2v16a2 2 0 01-2 2H8a2 2 0 01-2-2V4a2 2 0 012-2zM11 18h2',
  APPLE: 'M16.5 12.5c0-2.4 2-3.3 2-3.3a4.4 4.4 0 00-3.5-1.9c-1.5-.1-2.8.9-3.5.9s-1.8-.9-3-.9A4.5 4.5 0 004.7 10c-1.6 2.8-.4 7 1.2 9.2.8 1.1 1.7 2.3 2.9 2.3s1.6-.8 3-.8 1.8.8 3 .7 2-1.1 2.7-2.2a9.4 9.4 0 001.2-2.5 3.9 3.9 0 01-2.2-4.2zM14.3 5.3A3.8 3.8 0 0015.2 2.5a3.9 3.9 0 00-2.5 1.3 3.6 3.6 0 00-.9 2.7 3.2 3.2 0 002.5-1.2z',
  ANDROID: 'M6 9h12v8a1 1 0 01-1 1H7a1 1 0 01-1-1zM6 8a6 6 0 0112 0zM9 18v3M15 18v3M3.5 10v5M20.5 10v5M8 3.5l1.3 2M16 3.5l-1.3 2M10 6.5h.01M14 6.5h.01',
  ARROW: 'M5 12h14M13 6l6 6-6 6',
};

export function Icon({ name, className }: { name: IconName; className?: string }) {
  return (
    <svg className={`home-icon ${className ?? ''}`} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path d={PATHS[name]} />
    </svg>
  );
}
