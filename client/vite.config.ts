import path from 'node:path';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { bundleReport } from './build/bundle-report.ts';
import { firstLoadGroups } from './build/first-load-chunks.ts';
import { lightContracts } from './build/light-contracts.ts';
import { precompress } from './build/precompress.ts';
import { preloadApp } from './build/preload-app.ts';

/**
 * The gateway serves the API, images and Socket.IO; the dev server forwards to it, naming the
 * browser's address in X-Forwarded-For (xfwd): the gateway's development helpers answer only this
 * machine, and without the header every client of a dev server opened to the network (--host) would
 * look local to the gateway.
 */
const GATEWAY = { target: 'http://127.0.0.1:8080', xfwd: true };

/**
 * The production build runs on Preact (preact/compat) instead of React: the same components, about
 * 57 KB gzip less on the first paint (issue 12; README, "First paint"). Only `vite build`: the dev
 * server and the unit tests keep React (its warnings and dev tools), so the browser tests are what
 * prove the app on Preact. REACT=1 builds with React for a comparison.
 */
const PREACT = [
  { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
  { find: /^react\/jsx-runtime$/, replacement: 'preact/jsx-runtime' },
  { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/jsx-dev-runtime' },
  { find: /^react-dom$/, replacement: 'preact/compat' },
  { find: /^react$/, replacement: 'preact/compat' },
];

export default defineConfig(({ command }) => ({
  plugins: [lightContracts(), react(), preloadApp(['src/i18n/i18n.ts', 'src/app/app.tsx']), precompress(), bundleReport()],
  resolve: {
    alias: [
      { find: /^use-sync-external-store\/shim$/, replacement: path.resolve(import.meta.dirname, 'build/use-sync-external-store-shim.ts') },
      ...(command === 'build' && process.env.REACT !== '1' ? PREACT : []),
    ],
  },
  server: {
    proxy: {
      '/wps': GATEWAY,
      '/lgw': GATEWAY,
      '/img': GATEWAY,
      '/healthz': GATEWAY,
      '/ops/api': GATEWAY,
      '/pay': GATEWAY,
      '/vendor': GATEWAY,
      '/socket.io': { ...GATEWAY, ws: true },
    },
  },
  build: {
    outDir: 'dist',
    // Every browser the portal supports has <link rel="modulepreload">: no polyfill in the entry.
    modulePreload: { polyfill: false },
    emptyOutDir: true,
    // dist/.vite/manifest.json: what each entry and route chunk loads (the bundle-size test reads it).
    manifest: true,
    // No source maps in the shipped build (SOURCEMAP=1 for a local debugging build; production never serves *.map).
    sourcemap: process.env.SOURCEMAP === '1',
    rolldownOptions: {
      output: {
        // Each language's namespace is a chunk of its own (i18n/i18n.ts loads them on demand): name it.
        chunkFileNames: (chunk) => {
          const m = /locales[\\/]([^\\/]+)[\\/]([^\\/]+)\.json$/.exec(chunk.facadeModuleId ?? '');
          return m ? `assets/locale-${m[1]}-${m[2]}-[hash].js` : 'assets/[name]-[hash].js';
        },
        // React (Preact in the build) and the router change less often than the app and every page needs them: one chunk
        // that caches across releases. Other libraries go with the code that uses them (no catch-all
        // vendor chunk): a library only a lazy route uses (xstate, qrcode, embla, socket.io-client)
        // is then fetched with that route, not on the first paint of every page.
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](preact|react|react-dom|scheduler|react-router|react-router-dom)[\\/]/, priority: 3 },
            // The rest of the first load: a few chunks by when they run (build/first-load-chunks.ts).
            ...firstLoadGroups(import.meta.dirname),
          ],
        },
      },
    },
  },
}));
