import { useMatches } from 'react-router-dom';

/** What each route tells the shell. */
export type RouteHandle = {
  /** Translation key of the page title (document title and placeholders). */
  titleKey: string;
  /** False for pages without footer (/seamless). */
  footer?: boolean;
};

function isRouteHandle(v: unknown): v is RouteHandle {
  return typeof v === 'object' && v !== null && 'titleKey' in v && typeof v.titleKey === 'string';
}

/** The deepest matched route's id (the route name) and handle. */
export function useCurrentRoute(): { name: string | null; handle: RouteHandle | null } {
  const matches = useMatches();
  for (let i = matches.length - 1; i >= 0; i -= 1) {
    const m = matches[i];
    if (m && isRouteHandle(m.handle)) return { name: m.id, handle: m.handle };
  }
  return { name: matches.at(-1)?.id ?? null, handle: null };
}
