import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

/** The gateway serves the API, images and Socket.IO; the dev server forwards to it. */
const GATEWAY = 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [react()],
  server: {
    proxy: {
      '/wps': GATEWAY,
      '/lgw': GATEWAY,
      '/img': GATEWAY,
      '/healthz': GATEWAY,
      '/socket.io': { target: GATEWAY, ws: true },
    },
  },
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true },
});
