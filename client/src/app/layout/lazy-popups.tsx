import { lazyNamed } from '../lazy-page';

/**
 * The global popups (login, register, help, password, agent notices) in their own chunk: the
 * shell paints without them and they arrive right after (their open state lives in lib/popups, so
 * a popup asked for meanwhile opens when the chunk is there).
 */
export const GlobalPopups = lazyNamed(() => import('./global-popups'), 'GlobalPopups', null);

/**
 * The note of a break the player has just started (break-notice.tsx), in its own chunk: rendered only
 * while there is such a note (main-layout), so a visit without one never fetches it.
 */
export const LazyBreakNotice = lazyNamed(() => import('./break-notice'), 'BreakNotice', null);
