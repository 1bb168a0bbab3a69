import { describe, expect, it } from 'vitest';
import { matchRoutes } from 'react-router-dom';
import { AGENT_ROUTES, MAIN_ROUTES } from './route-table';

const all = [...AGENT_ROUTES, ...MAIN_ROUTES];
const routes = [
  { id: 'agentShell', children: AGENT_ROUTES.map((r) => ({ id: r.id, path: r.path })) },
  { id: 'shell', children: MAIN_ROUTES.map((r) => ({ id: r.id, path: r.path })) },
];
const routeOf = (path: string) => matchRoutes(routes, path)?.at(-1)?.route.id;

describe('route table (spec section 2)', () => {
  it('has every route of the spec', () => {
    const paths: string[] = all.map((r) => r.path);
    for (const p of ['/', '/index', '/index.html', '/home', '/login', '/register', '/agent', '/agentHome', '/member', '/down', '/help',
      '/sports', '/esports', '/fish', '/live', '/pvp', '/jili', '/rng', '/lottery', '/seaLottery', '/vnLottery', '/promotions',
      '/pointMall', '/sponsor', '/description', '/seamless', '/lott', '/elott', '/cockfight']) {
      expect(paths).toContain(p);
    }
  });

  it('guards the routes that need a session', () => {
    const guarded = all.filter((r) => 'auth' in r && r.auth).map((r) => r.path).sort();
    expect(guarded).toEqual(['/agentHome', '/feedback', '/lottery', '/member', '/seaLottery', '/seamless', '/vnLottery']);
  });

  it('has unique route names and only /seamless without footer', () => {
    expect(new Set(all.map((r) => r.id)).size).toBe(all.length);
    expect(all.filter((r) => 'footer' in r && r.footer === false).map((r) => r.path)).toEqual(['/seamless']);
  });

  it('matches paths case-insensitively, the named gameListCenter route, and unknown paths as home', () => {
    expect(routeOf('/vnlottery')).toBe('vnLottery');
    expect(routeOf('/sealottery')).toBe('seaLottery');
    expect(routeOf('/gameListCenter/jl/rng')).toBe('gameListCenter');
    expect(routeOf('/no/such/page')).toBe('notFound');
    expect(routeOf('/agent')).toBe('agent');
  });
});
