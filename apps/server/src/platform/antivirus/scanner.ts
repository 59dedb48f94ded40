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


// A received message with an infected file (issue 26): refused whole, nothing of it stored.
export class InfectedMessageError extends Error {
  constructor(
    readonly fileName: string,
    readonly signature: string,
  ) {
    // ASCII only: the text may become an SMTP reply or a delivery reason.
    super(`Refused: the attachment ${fileName.replace(/[^\x20-\x7e]/g, '?')} contains a virus (${signature.replace(/[^\x20-\x7e]/g, '?')}).`);
  }
}

// Scans every file of a received message before any of it is stored; throws InfectedMessageError or
// ScannerUnavailableError (the caller retries later: the message must not be lost).
export async function scanReceivedFiles(scanner: Scanner | undefined, files: { fileName: string; bytes: () => Promise<Uint8Array> | Uint8Array }[]): Promise<void> {
  if (!scanner?.configured) return;
  for (const file of files) {
    const verdict = await scanner.scan(await file.bytes());
    if (!verdict.clean) throw new InfectedMessageError(file.fileName, verdict.signature);
  }
}
