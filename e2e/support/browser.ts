import { chromium, type Browser } from 'playwright-core';
import { DEFAULT_CHROMIUM_PATH } from './constants.ts';

// Debian's chromium; never a downloaded browser. The /usr/bin wrapper prints a shell error, so the binary itself.
export const chromiumPath = (): string => process.env.CHROMIUM_PATH ?? DEFAULT_CHROMIUM_PATH;

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** A fresh Chromium; launch() gives it a new temporary --user-data-dir, removed on close. */
export async function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS, timeout: 30_000 });
}
