import path from 'node:path';

export const REPO_ROOT = path.resolve(import.meta.dirname, '../..');
export const E2E_ROOT = path.resolve(import.meta.dirname, '..');
export const RESULTS_DIR = path.join(E2E_ROOT, 'test-results');

// Same default as the server; passed to it explicitly so the journeys never depend on an inherited env.
export const DEMO_PASSWORD = 'Demo-pass-2026!';

export const DEFAULT_CHROMIUM_PATH = '/usr/lib/chromium/chromium';
