export type ScanResult = { clean: true } | { clean: false; signature: string };

// What every file a user hands us passes through before anything of it is stored.
export interface Scanner {
  // False for the "none" scanner: health then says uploads are not scanned.
  readonly configured: boolean;
  scan(bytes: Uint8Array): Promise<ScanResult>;
  // Whether the scanner answers now (health).
  ping(): Promise<boolean>;
}

// What a refused upload's Retry-After says while the scanner is unavailable.
export const SCANNER_RETRY_AFTER_SECONDS = 60;

// The scanner could not give a verdict (down, timed out, refused the stream): the file must not be stored.
export class ScannerUnavailableError extends Error {}

// Used when CLAMD_URL is not set: every file passes unscanned, and health says so.
export const noScanner: Scanner = {
  configured: false,
  scan: async () => ({ clean: true }),
  ping: async () => true,
};

