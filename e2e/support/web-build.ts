import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './constants.ts';

const WEB_DIR = path.join(REPO_ROOT, 'apps/web');
const BUILT_INDEX = path.join(WEB_DIR, 'dist/index.html');
// Everything that ends up in the bundle: the SPA itself and the contracts it imports.
const SOURCES = [
  path.join(WEB_DIR, 'src'),
  path.join(WEB_DIR, 'public'),
  path.join(WEB_DIR, 'index.html'),
  path.join(WEB_DIR, 'vite.config.ts'),
  path.join(WEB_DIR, 'package.json'),
  path.join(REPO_ROOT, 'packages/contracts/src'),
];

function newestMtime(target: string): number {
  if (!existsSync(target)) return 0;
  const stats = statSync(target);
  if (!stats.isDirectory()) return stats.mtimeMs;
  let newest = stats.mtimeMs;
  for (const entry of readdirSync(target)) newest = Math.max(newest, newestMtime(path.join(target, entry)));
  return newest;
}

export function webBuildIsStale(): boolean {
  if (!existsSync(BUILT_INDEX)) return true;
  const builtAt = statSync(BUILT_INDEX).mtimeMs;
  return SOURCES.some((source) => newestMtime(source) > builtAt);
}

/** Runs `npm run build` when apps/web/dist is missing or older than its sources (E2E_BUILD=always forces it). */
export function ensureWebBuild(): void {
  const force = process.env.E2E_BUILD === 'always';
  if (!force && !webBuildIsStale()) {
    console.log('[e2e] apps/web/dist is up to date; not rebuilding');
    return;
  }
  const started = Date.now();
  const result = spawnSync('npm', ['run', 'build'], { cwd: REPO_ROOT, encoding: 'utf8', stdio: 'pipe' });
  if (result.status !== 0) {
    throw new Error(`[e2e] npm run build failed (exit ${result.status ?? result.signal}):\n${result.stdout}\n${result.stderr}`);
  }
  console.log(`[e2e] built apps/web in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
