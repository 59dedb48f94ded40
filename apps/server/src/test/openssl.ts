import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

// The OpenSSL command line, for interoperability tests of the Direct (S/MIME, X.509) code: what OpenSSL
// accepts is what other HISPs accept.

const CANDIDATES = ['/usr/bin/openssl', '/usr/local/bin/openssl'];
export const opensslBinary = CANDIDATES.find((file) => existsSync(file));

let told = false;
// Why the OpenSSL tests cannot run here (null when they can). Under CI a missing openssl is an error, so
// CI never skips them silently; elsewhere the reason is printed once and the tests are skipped.
export function opensslMissing(): string | null {
  if (opensslBinary) return null;
  const reason = `openssl is not installed (looked for ${CANDIDATES.join(', ')}; Debian: apt-get install -y openssl)`;
  if (process.env.CI === 'true') throw new Error(`CI=true and ${reason}.`);
  if (!told) console.warn(`[openssl] tests skipped: ${reason}.`);
  told = true;
  return reason;
}

export interface OpensslResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs openssl with the arguments in a fresh folder holding the given files; never throws on a non-zero exit. */
export async function openssl(args: string[], files: Record<string, string | Uint8Array> = {}): Promise<OpensslResult> {
  if (!opensslBinary) throw new Error('openssl is not installed');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'openssl-'));
  try {
    for (const [name, content] of Object.entries(files)) writeFileSync(path.join(dir, name), content);
    try {
      const { stdout, stderr } = await promisify(execFile)(opensslBinary, args, { cwd: dir, encoding: 'utf8' });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const failed = error as { code?: number; stdout?: string; stderr?: string };
      return { code: typeof failed.code === 'number' ? failed.code : 1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
