import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

/**
 * The gateway serves the API, images and Socket.IO; the dev server forwards to it, naming the
 * browser's address in X-Forwarded-For (xfwd): the gateway's development helpers answer only this
 * machine, and without the header every client of a dev server opened to the network (--host) would
 * look local to the gateway.
 */
const GATEWAY = { target: 'http://127.0.0.1:8080', xfwd: true };

export default defineConfig({
  plugins: [react()],
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
    emptyOutDir: true,
    // No source maps in the shipped build (SOURCEMAP=1 for a local debugging build; production never serves *.map).
    sourcemap: process.env.SOURCEMAP === '1',
    rolldownOptions: {
      output: {
        // Libraries change less often than the app: separate chunks cache better.
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler|react-router|react-router-dom)[\\/]/, priority: 3 },
            { name: 'zod', test: /node_modules[\\/]zod[\\/]/, priority: 2 },
            { name: 'vendor', test: /node_modules[\\/]/, priority: 1 },
          ],
        },
      },
    },
  },
});
