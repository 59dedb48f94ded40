import path from 'node:path';

export const REPO_ROOT = path.resolve(import.meta.dirname, '../..');
export const E2E_ROOT = path.resolve(import.meta.dirname, '..');
export const RESULTS_DIR = path.join(E2E_ROOT, 'test-results');

// Same default as the server; passed to it explicitly so the journeys never depend on an inherited env.
export const DEMO_PASSWORD = 'Demo-pass-2026!';

export const DEFAULT_CHROMIUM_PATH = '/usr/lib/chromium/chromium';

// A real scanned referral of the shared fixtures, read where it lives beside the project.
export const UD_SAMPLE = path.resolve(REPO_ROOT, '../shared/fixtures/pdf/ud-sample.pdf');
export const REFERRAL_NOTE = path.resolve(REPO_ROOT, '../shared/fixtures/cda/referral-note.xml');

// Every page opens at the size its screenshots are taken at (the developers' guide: 1440×900).
export const SCREENSHOT_VIEWPORT = { width: 1440, height: 900 } as const;
