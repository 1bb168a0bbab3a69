import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Express } from 'express';
import { startProductionTestPortal, startTestPortal, type TestPortal } from '../testing/test-portal.ts';
import { OPENAPI_PATH } from './openapi.ts';

type Layer = { route?: { path: unknown; methods: Record<string, boolean> }; handle?: { stack?: Layer[] } };
type Doc = { openapi: string; paths: Record<string, Record<string, {
  responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
  security?: unknown; requestBody?: unknown; parameters?: Array<{ name?: string; in?: string }>;
}>> };

/** Every route the app's router stack holds (nested routers included), as `METHOD /path` in OpenAPI form. */
function mountedRoutes(app: Express): string[] {
  const out: string[] = [];
  const walk = (stack: Layer[]) => {
    for (const layer of stack) {
      if (layer.route) {
        const paths = Array.isArray(layer.route.path) ? layer.route.path : [layer.route.path];
        for (const p of paths) {
          if (typeof p !== 'string') continue;
          for (const [m, on] of Object.entries(layer.route.methods)) if (on && m !== '_all') out.push(`${m.toUpperCase()} ${p.replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`);
        }
      } else if (layer.handle?.stack) walk(layer.handle.stack);
    }
  };
  walk((app as unknown as { router: { stack: Layer[] } }).router.stack);
  return out;
}

const documented = (doc: Doc) => Object.entries(doc.paths).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`));
const playerApi = (r: string) => /^[A-Z]+ \/(wps|lgw)(\/|$)/.test(r);

describe('OpenAPI document of the player API', () => {
  let t: TestPortal;
  let doc: Doc;
  beforeAll(async () => {
    t = await startTestPortal();
    const r = await fetch(`${t.url}${OPENAPI_PATH}`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/application\/json/);
    doc = (await r.json()) as Doc;
  });
  afterAll(async () => t?.stop());

  it('documents every /wps and /lgw route the app mounts (development mode: dev tools included)', () => {
    const mounted = mountedRoutes(t.portal.app).filter(playerApi);
    // The walk finds the routes of the API router and of the app itself (a broken walk finds none).
    expect(mounted.length).toBeGreaterThan(100);
    expect(mounted).toContain('POST /wps/session/login');
    expect(mounted).toContain('GET /wps/openapi.json');
    const inDoc = new Set(documented(doc));
    expect(mounted.filter((r) => !inDoc.has(r))).toEqual([]);
  });

  it('documents only routes that exist', () => {
    const mounted = new Set(mountedRoutes(t.portal.app));
    expect(documented(doc).filter((r) => !mounted.has(r))).toEqual([]);
  });

  it('states the envelope, the schemas and the refusal codes', () => {
    expect(doc.openapi).toBe('3.1.0');
    const login = doc.paths['/wps/session/login']!.post!;
    expect(login.requestBody).toBeTruthy();
    const ok = login.responses['200']!.content!['application/json']!.schema as { properties: { success: unknown; value: { type?: string } } };
    expect(ok.properties.success).toEqual({ const: true });
    expect(ok.properties.value.type).toBe('object');
    const refused = JSON.stringify(login.responses);
    for (const code of ['INVALID_CREDENTIALS', 'LOGIN_LOCKED', 'VALIDATION', 'MALFORMED_JSON']) expect(refused).toContain(code);
    expect(refused).toContain('#/components/schemas/ErrorEnvelope');
    // A member call needs the bearer token and says so, with its 401.
    const balance = Object.entries(doc.paths).find(([p, ops]) => p.startsWith('/wps/') && Object.values(ops).some((o) => o.security))!;
    const op = Object.values(balance[1]).find((o) => o.security)!;
    expect(op.responses['401']).toBeTruthy();
    expect(JSON.stringify(op.responses['401'])).toContain('UNAUTHORIZED');
    // Path parameters are declared.
    const withParam = doc.paths['/wps/v2/withdrawals/{id}']!.get!;
    expect(withParam.parameters).toContainEqual(expect.objectContaining({ name: 'id', in: 'path' }));
  });
});

describe('OpenAPI document in production mode', () => {
  it('matches the production app: no dev tools mounted, none documented', async () => {
    const t = await startProductionTestPortal();
    try {
      const doc = (await (await fetch(`${t.url}${OPENAPI_PATH}`)).json()) as Doc;
      const routes = documented(doc);
      expect(routes.some((r) => r.includes('/wps/dev/'))).toBe(false);
      const mounted = mountedRoutes(t.portal.app).filter(playerApi);
      const inDoc = new Set(routes);
      expect(mounted.filter((r) => !inDoc.has(r))).toEqual([]);
      expect(routes.filter((r) => !mounted.includes(r))).toEqual([]);
    } finally {
      await t.stop();
    }
  });
});
