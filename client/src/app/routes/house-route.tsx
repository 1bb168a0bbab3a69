import type { RouteObject } from 'react-router-dom';
import type { RouteHandle } from '../route-handle';
import { loadNamespaces } from '../../i18n/i18n';
import { RouteError } from './route-error';

const handle: RouteHandle = { titleKey: 'house:page_title', footer: false };

/** /house/play: a house game rendered alone (no side menu, header or footer), loaded on demand. */
export const HOUSE_ROUTE: RouteObject = {
  id: 'housePlay',
  path: '/house/play',
  lazy: async () => {
    const [m] = await Promise.all([import('../../features/house/components/house-play-page'), loadNamespaces(['house'])]);
    return { Component: m.HousePlayPage };
  },
  errorElement: <RouteError />,
  handle,
};
