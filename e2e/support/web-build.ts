import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { REPO_ROOT } from './constants.ts';

/** Builds apps/web the way `npm start` does: when missing or older than its sources (E2E_BUILD=always forces it). */
export function ensureWebBuild(): void {
  const started = Date.now();
  const args = [path.join(REPO_ROOT, 'scripts/start.mjs'), '--build-only'];
  if (process.env.E2E_BUILD === 'always') args.push('--force-build');
  const result = spawnSync(process.execPath, args, { cwd: REPO_ROOT, encoding: 'utf8', stdio: 'pipe' });
  if (result.status !== 0) {
    throw new Error(`[e2e] web build failed (exit ${result.status ?? result.signal}):\n${result.stdout}\n${result.stderr}`);
  }
  console.log(`[e2e] web app ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
