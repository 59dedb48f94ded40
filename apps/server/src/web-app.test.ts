import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { useTestApp } from './test/app.ts';

// A tiny web build as apps/web's `vite build` leaves it: assets with .br and .gz beside them, a hidden source map.
function webBuild(): { dir: string; script: string } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'clinicrelay-web-'));
  mkdirSync(path.join(dir, 'assets'));
  writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>ClinicRelay</title><div id="root"></div>');
  const script = `export const routes = [${Array.from({ length: 400 }, (_, i) => `'/route/${i}'`).join(', ')}];\n`;
  writeFileSync(path.join(dir, 'assets', 'index-abc123.js'), script);
  writeFileSync(path.join(dir, 'assets', 'index-abc123.js.br'), brotliCompressSync(script));
  writeFileSync(path.join(dir, 'assets', 'index-abc123.js.gz'), gzipSync(script));
  writeFileSync(path.join(dir, 'assets', 'index-abc123.js.map'), '{"version":3,"sources":["../../src/secret-source.tsx"]}');
  return { dir, script };
}

describe('the web build', () => {
  const web = webBuild();
  const t = useTestApp({ config: { WEB_DIST_DIR: web.dir } });
  const get = (url: string, acceptEncoding?: string) =>
    t.app.inject({ method: 'GET', url, headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding } });

  it('answers a script brotli-compressed when the browser accepts br', async () => {
    const res = await get('/assets/index-abc123.js', 'br, gzip');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toContain('javascript');
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(res.headers['cache-control']).toContain('immutable');
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(web.script);
  });

  it('answers it gzip-compressed when the browser accepts gzip only', async () => {
    const res = await get('/assets/index-abc123.js', 'gzip, deflate');
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers['content-type']).toContain('javascript');
    expect(gunzipSync(res.rawPayload).toString()).toBe(web.script);
  });

  it('answers it as it is otherwise', async () => {
    for (const acceptEncoding of [undefined, 'identity']) {
      const res = await get('/assets/index-abc123.js', acceptEncoding);
      expect(res.headers['content-encoding'], acceptEncoding).toBeUndefined();
      expect(res.body).toBe(web.script);
    }
  });

  it('never serves source maps', async () => {
    for (const acceptEncoding of [undefined, 'br, gzip']) {
      const res = await get('/assets/index-abc123.js.map', acceptEncoding);
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toContain('secret-source');
    }
  });

  it('answers a missing build file with 404, not the app page (a stale lazy chunk must fail as a script)', async () => {
    const res = await get('/assets/release-page-old.js', 'br, gzip');
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).not.toContain('text/html');
  });

  it('still answers deep links with index.html', async () => {
    const res = await get('/account/login', 'br, gzip');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toContain('<div id="root">');
  });
});
