import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router-dom';
import { HOUSE_ROUTE } from './house-route';
import { OPS_ROUTE } from './ops-routes';

/**
 * The lazy top-level routes (/ops, /house/play) give the router an element for the first render
 * while their chunk loads (initial hydration): a spinner, and no React Router warning
 * "No `HydrateFallback` element provided to render during initial hydration".
 */
/** The route as it is, with chunks that never arrive: the first render only (no page module or namespace is loaded by the test). */
const pending = (r: RouteObject): RouteObject =>
  ({ ...r, ...(r.lazy ? { lazy: () => new Promise<never>(() => {}) } : {}), ...(r.children ? { children: r.children.map(pending) } : {}) }) as RouteObject;

describe('lazy top-level routes: hydrate fallback', () => {
  afterEach(() => vi.restoreAllMocks());

  it.each([
    ['/ops/deposits', OPS_ROUTE],
    ['/ops', OPS_ROUTE],
    ['/house/play', HOUSE_ROUTE],
  ] as Array<[string, RouteObject]>)('%s renders the page spinner before its chunk is in', (path, route) => {
    expect(route.hydrateFallbackElement ?? route.HydrateFallback).toBeTruthy();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const router = createMemoryRouter([pending(route)], { initialEntries: [path] });
    const html = renderToStaticMarkup(<RouterProvider router={router} />);
    router.dispose();
    expect(html).toContain('page-spinner');
    expect(warn.mock.calls.flat().join(' ')).not.toMatch(/HydrateFallback/);
  });
});
