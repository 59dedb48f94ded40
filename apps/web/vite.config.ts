/// <reference types="vitest/config" />
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { precompress } from './scripts/precompress.ts';

// The API runs on the same origin in production; in `npm run dev` Vite proxies /api to the server.
export default defineConfig({
  plugins: [react(), precompress()],
  server: {
    port: 5173,
    proxy: {
      '/api': { target: `http://localhost:${process.env.PORT ?? 8080}`, changeOrigin: false, ws: true },
      '/odata': { target: `http://localhost:${process.env.PORT ?? 8080}`, changeOrigin: false },
    },
  },
  // Maps stay beside the build for reading reported stack traces; no bundle points at them and the
  // server never serves them. The manifest (dist/.vite, never served) lets bench/first-load.ts follow imports.
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: 'hidden',
    manifest: true,
    // Everything the first page needs in one chunk: shared pieces split out of it would compress worse
    // and cost a request each, while every lazy route still gets chunks of its own.
    rolldownOptions: { output: { codeSplitting: { groups: [{ name: 'app', tags: ['$initial'] }] } } },
  },
  test: {
    name: 'web',
    include: ['src/**/*.test.{ts,tsx}'],
    environment: 'happy-dom',
    setupFiles: ['src/test/setup.ts'],
    unstubGlobals: true,
    restoreMocks: true,
    testTimeout: 15_000,
  },
});
