import type { SVGProps } from 'react';

/** Small inline icons (currentColor). Brand glyphs are simplified marks, not official logos. */
export type IconName =
  | 'YOUTUBE' | 'FACEBOOK' | 'INSTAGRAM' | 'TWITTER' | 'TELEGRAM' | 'LIVECHAT'
  | 'sun' | 'moon' | 'menu' | 'download' | 'globe' | 'chevron' | 'help' | 'user' | 'spark' | 'game' | 'close';

const PATHS: Record<IconName, string> = {
  YOUTUBE: 'M21.6 7.2a2.5 2.5 0 0 0-1.8-1.8C18.2 5 12 5 12 5s-6.2 0-7.8.4A2.5 2.5 0 0 0 2.4 7.2 26 26 0 0 0 2 12a26 26 0 0 0 .4 4.8 2.5 2.5 0 0 0 1.8 1.8C5.8 19 12 19 12 19s6.2 0 7.8-.4a2.5 2.5 0 0 0 1.8-1.8A26 26 0 0 0 22 12a26 26 0 0 0-.4-4.8zM10 15V9l5.2 3z',
  FACEBOOK: 'M14 8h3V4h-3c-2.8 0-4.5 1.8-4.5 4.6V11H7v4h2.5v7h4v-7H17l.5-4h-4V8.9c0-.6.3-.9.5-.9z',
  INSTAGRAM: 'M7.5 3h9A4.5 4.5 0 0 1 21 7.5v9a4.5 4.5 0 0 1-4.5 4.5h-9A4.5 4.5 0 0 1 3 16.5v-9A4.5 4.5 0 0 1 7.5 3zm0 2A2.5 2.5 0 0 0 5 7.5v9A2.5 2.5 0 0 0 7.5 19h9a2.5 2.5 0 0 0 2.5-2.5v-9A2.5 2.5 0 0 0 16.5 5zM12 8a4 4 0 1 1 0 8 4 4 0 0 1 0-8zm0 2a2 2 0 1 0 0 4 2 2 0 0 0 0-4zm4.8-3.3a1 1 0 1 1 0 2 1 1 0 0 1 0-2z',
  TWITTER: 'M4 4h4.6l3.8 5.2L16.9 4H20l-6.1 7 6.6 9h-4.6l-4.1-5.6L6.9 20H3.8l6.5-7.4z',
  TELEGRAM: 'M21.5 4.3 2.9 11.5c-1 .4-1 1.6 0 1.9l4.6 1.5 1.8 5.5c.2.7 1.1.9 1.6.4l2.6-2.5 4.6 3.4c.7.5 1.6.1 1.8-.7l3-14.7c.2-1-.8-1.9-1.9-1.5zM9.8 14.4l-.5 3.6-1.2-3.9 9.4-6.4z',
  LIVECHAT: 'M4 4h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H9l-5 4v-4a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2zm3 6.5a1.5 1.5 0 1 0 0 .01zm5 0a1.5 1.5 0 1 0 0 .01zm5 0a1.5 1.5 0 1 0 0 .01z',
  sun: 'M12 7a5 5 0 1 1 0 10 5 5 0 0 1 0-10zm0-5 1 3h-2zm0 20-1-3h2zM2 12l3-1v2zm20 0-3 1v-2zM4.9 4.9l2.8 1.4-1.4 1.4zm14.2 14.2-2.8-1.4 1.4-1.4zM4.9 19.1l1.4-2.8 1.4 1.4zM19.1 4.9l-1.4 2.8-1.4-1.4z',
  moon: 'M20 14.5A8.5 8.5 0 0 1 9.5 4a8.5 8.5 0 1 0 10.5 10.5z',
  menu: 'M3 6h18v2H3zm0 5h18v2H3zm0 5h18v2H3z',
  download: 'M11 3h2v9.2l3.3-3.3 1.4 1.4L12 16l-5.7-5.7 1.4-1.4 3.3 3.3zM4 18h16v2H4z',
  globe: 'M12 2a10 10 0 1 1 0 20 10 10 0 0 1 0-20zm6.9 9a8 8 0 0 0-3.3-5.6c.7 1.5 1.2 3.4 1.3 5.6zM12 4c-.9 1-1.8 3.5-1.9 7h3.8C13.8 7.5 12.9 5 12 4zm-3.6 1.4A8 8 0 0 0 5.1 11h2c.1-2.2.6-4.1 1.3-5.6zM5.1 13a8 8 0 0 0 3.3 5.6C7.7 17.1 7.2 15.2 7.1 13zm5 0c.1 3.5 1 6 1.9 7 .9-1 1.8-3.5 1.9-7zm5.5 5.6a8 8 0 0 0 3.3-5.6h-2c-.1 2.2-.6 4.1-1.3 5.6z',
  chevron: 'M7 9.5 12 14.5 17 9.5 15.6 8 12 11.6 8.4 8z',
  help: 'M12 2a10 10 0 1 1 0 20 10 10 0 0 1 0-20zm0 14a1.2 1.2 0 1 0 0 2.4A1.2 1.2 0 0 0 12 16zm0-10a4 4 0 0 0-4 4h2a2 2 0 1 1 2.8 1.8c-1 .5-1.8 1.4-1.8 2.7V15h2v-.5c0-.5.3-.8.8-1A4 4 0 0 0 12 6z',
  user: 'M12 12a5 5 0 1 0 0-10 5 5 0 0 0 0 10zm0 2c-4.4 0-8 2.2-8 5v3h16v-3c0-2.8-3.6-5-8-5z',
  spark: 'M12 2l2.4 7.6L22 12l-7.6 2.4L12 22l-2.4-7.6L2 12l7.6-2.4z',
  close: 'M6.4 5 12 10.6 17.6 5 19 6.4 13.4 12 19 17.6 17.6 19 12 13.4 6.4 19 5 17.6 10.6 12 5 6.4z',
  game: 'M7 6h10a6 6 0 0 1 0 12c-1.7 0-2.8-.8-3.6-2h-2.8c-.8 1.2-1.9 2-3.6 2A6 6 0 0 1 7 6zm0 3.5v2H5v2h2v2h2v-2h2v-2H9v-2zM16 9a1.2 1.2 0 1 0 0 2.4A1.2 1.2 0 0 0 16 9zm2 3a1.2 1.2 0 1 0 0 2.4 1.2 1.2 0 0 0 0-2.4z',
};

export function Icon({ name, size = 20, ...rest }: { name: IconName; size?: number } & Omit<SVGProps<SVGSVGElement>, 'name'>) {
  return (
    <svg viewBox="0 0 24 24" width={size} height={size} fill="currentColor" aria-hidden="true" focusable="false" {...rest}>
      <path d={PATHS[name]} fillRule="evenodd" />
    </svg>
  );
}

export function isIconName(v: string): v is IconName {
  return v in PATHS;
}
