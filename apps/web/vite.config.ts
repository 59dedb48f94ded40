/// <reference types="vitest/config" />
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The API runs on the same origin in production; in `npm run dev` Vite proxies /api to the server.
export default defineConfig({
  plugins: [react()],
  server: {
    port: 5173,
    proxy: { '/api': { target: `http://localhost:${process.env.PORT ?? 8080}`, changeOrigin: false, ws: true } },
  },
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true },
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
