import type { RouteObject } from 'react-router-dom';
import type { RouteHandle } from '../route-handle';
import { loadNamespaces } from '../../i18n/i18n';
import { RouteError } from './route-error';
import { PAGE_FALLBACK } from '../lazy-page';
import { RgExclusionProvider } from '../rg-exclusion-provider';

const handle: RouteHandle = { titleKey: 'house:page_title', footer: false };

/** /house/play: a house game rendered alone (no side menu, header or footer), loaded on demand. */
export const HOUSE_ROUTE: RouteObject = {
  id: 'housePlay',
  path: '/house/play',
  lazy: async () => {
    const [m] = await Promise.all([import('../../features/house/components/house-play-page'), loadNamespaces(['house'])]);
    // The signed-in player's exclusion, as on every page of the shell: an excluded player plays nothing here.
    const Page = m.HousePlayPage;
    return { Component: () => <RgExclusionProvider><Page /></RgExclusionProvider> };
  },
  // Shown while the lazy page loads on a first visit (the router's initial hydration): no blank page, no warning.
  hydrateFallbackElement: PAGE_FALLBACK,
  errorElement: <RouteError />,
  handle,
};
