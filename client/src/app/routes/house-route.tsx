import type { RouteObject } from 'react-router-dom';
import type { RouteHandle } from '../route-handle';
import { RouteError } from './route-error';

const handle: RouteHandle = { titleKey: 'house:page_title', footer: false };

/** /house/play: a house game rendered alone (no side menu, header or footer), loaded on demand. */
export const HOUSE_ROUTE: RouteObject = {
  id: 'housePlay',
  path: '/house/play',
  lazy: async () => ({ Component: (await import('../../features/house/components/house-play-page')).HousePlayPage }),
  errorElement: <RouteError />,
  handle,
};
