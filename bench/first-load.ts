import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { benchApp } from './bench-app.ts';

// First load of the sign-in page: what a browser downloads for /account/login (index.html, its entry
// script and stylesheet, and transitively every static import of the entry chunk, from the Vite
// manifest), each asked for with `accept-encoding: br, gzip` from the running app. Printed beside the
// 150 kB target for compressed JavaScript and beside the uncompressed sizes.

const ROOT = path.resolve(import.meta.dirname, '..');
const DIST = path.join(ROOT, 'apps/web/dist');
const MANIFEST = path.join(DIST, '.vite/manifest.json');
// kB as Vite reports it: 1000 bytes.
export const TARGET_JS_BYTES = 150_000;

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  css?: string[];
}

interface Fetched {
  url: string;
  status: number;
  encoding: string;
  wireBytes: number;
  bytes: number;
}

// The build `npm start` would make: rebuilt when the sources are newer; forced when it has no manifest.
function ensureBuild(): void {
  const args = [path.join(ROOT, 'scripts/start.mjs'), '--build-only', ...(existsSync(MANIFEST) ? [] : ['--force-build'])];
  const result = spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`web build failed:\n${result.stdout}\n${result.stderr}`);
}

// One GET as a browser sends it; node:http does not decode, so the bytes counted are the bytes on the wire.
function get(base: string, url: string, acceptEncoding: string): Promise<Fetched & { body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(new URL(url, base), { headers: { 'accept-encoding': acceptEncoding, accept: '*/*' } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const body = Buffer.concat(chunks);
          // The file served, to tell its own size: a route path is answered with index.html.
          const local = path.join(DIST, decodeURIComponent(new URL(url, base).pathname));
          const bytes = statSync(existsSync(local) && statSync(local).isFile() ? local : path.join(DIST, 'index.html')).size;
          resolve({ url, status: res.statusCode ?? 0, encoding: String(res.headers['content-encoding'] ?? 'identity'), wireBytes: body.length, bytes, body });
        });
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

// The entry chunk and every chunk it imports statically, with their stylesheets: what loads before
// any lazy route is asked for.
function staticClosure(manifest: Record<string, ManifestChunk>, entryFile: string): { js: string[]; css: string[] } {
  const entryKey = Object.keys(manifest).find((key) => manifest[key]!.file === entryFile);
  if (!entryKey) throw new Error(`${entryFile} is not in the Vite manifest`);
  const seen = new Set<string>();
  const css = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    for (const sheet of manifest[key]!.css ?? []) css.add(sheet);
    for (const next of manifest[key]!.imports ?? []) visit(next);
  };
  visit(entryKey);
  return { js: [...seen].map((key) => manifest[key]!.file), css: [...css] };
}

const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;

export interface FirstLoad {
  // Compressed JavaScript of the sign-in page's first load, as a browser asking for br or gzip receives it.
  jsWireBytes: number;
  lines: string[];
}

// Measured once for the benchmark and for `npm run check:first-load` (bench/check-first-load.ts), which fails CI over the target.
export async function measureFirstLoad(): Promise<FirstLoad> {
  ensureBuild();
  const manifest = JSON.parse(readFileSync(MANIFEST, 'utf8')) as Record<string, ManifestChunk>;
  const { app, close } = await benchApp();
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  try {
    const page = await get(base, '/account/login', 'br, gzip');
    const html = page.body.toString('utf8');
    const tags = (pattern: RegExp) => [...html.matchAll(pattern)].map((m) => m[1]!.replace(/^\//, ''));
    const scripts = tags(/<script[^>]*\bsrc="([^"]+)"/g);
    const preloads = tags(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g);
    const sheets = tags(/<link[^>]*rel="stylesheet"[^>]*href="([^"]+)"/g);
    const entry = scripts[0];
    if (!entry) throw new Error('index.html has no entry script');
    const closure = staticClosure(manifest, entry);
    // index.html names what the browser fetches before running anything; the closure must cover it.
    const missing = [...scripts, ...preloads, ...sheets].filter((file) => !closure.js.includes(file) && !closure.css.includes(file));
    if (missing.length) throw new Error(`index.html loads files outside the entry's static imports: ${missing.join(', ')}`);

    const fetchAll = (files: string[], encoding = 'br, gzip') => Promise.all(files.map((file) => get(base, `/${file}`, encoding)));
    const js = await fetchAll(closure.js);
    const css = await fetchAll([...new Set([...closure.css, ...sheets])]);
    const failed = [page, ...js, ...css].filter((f) => f.status !== 200);
    if (failed.length) throw new Error(`not served: ${failed.map((f) => `${f.url} ${f.status}`).join(', ')}`);
    const gzipJs = await fetchAll(closure.js, 'gzip');

    const assetFiles = readdirSync(path.join(DIST, 'assets')).filter((name) => !/\.(?:br|gz|map)$/.test(name));
    const all = await fetchAll(assetFiles.map((name) => `assets/${name}`));
    const sum = (list: Fetched[], key: 'wireBytes' | 'bytes') => list.reduce((total, f) => total + f[key], 0);

    const jsWire = sum(js, 'wireBytes');
    const lines = [
      'First load of /account/login (accept-encoding: br, gzip)',
      ...[page, ...js, ...css].map((f) => `  ${f.url}: ${kB(f.wireBytes)} ${f.encoding} (uncompressed ${kB(f.bytes)})`),
      `  JavaScript: ${kB(jsWire)} compressed in ${js.length} files (gzip only: ${kB(sum(gzipJs, 'wireBytes'))}; uncompressed ${kB(sum(js, 'bytes'))})`,
      `    target ${kB(TARGET_JS_BYTES)}: ${jsWire <= TARGET_JS_BYTES ? 'met' : 'MISSED'} (${((jsWire / TARGET_JS_BYTES) * 100).toFixed(0)}% of it)`,
      `  CSS: ${kB(sum(css, 'wireBytes'))} compressed (uncompressed ${kB(sum(css, 'bytes'))})`,
      `  sign-in total (HTML, JS, CSS): ${kB(page.wireBytes + jsWire + sum(css, 'wireBytes'))} compressed (uncompressed ${kB(page.bytes + sum(js, 'bytes') + sum(css, 'bytes'))})`,
      `All ${all.length} web assets (every route, PDF.js and its worker): ${kB(sum(all, 'wireBytes'))} compressed (uncompressed ${kB(sum(all, 'bytes'))})`,
    ];
    return { jsWireBytes: jsWire, lines };
  } finally {
    await close();
  }
}

export async function firstLoadBenchmarks(): Promise<string[]> {
  return (await measureFirstLoad()).lines;
}
