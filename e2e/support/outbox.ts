import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { currentServer } from './current-server.ts';

// The server's mail outbox (DATA_DIR/outbox, one .eml per mail without SMTP_URL): journeys read what it sent.
const outboxDir = () => path.join(currentServer().dataDir, 'outbox');

// Quoted-printable undone (soft line breaks and =XX), so links and texts read as sent.
const decoded = (eml: string) => eml.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));

/** A mail whose text mentions `needle` (e.g. the recipient's address), decoded; '' when none yet. */
export function mailMentioning(needle: string): string {
  let files: string[];
  try {
    files = readdirSync(outboxDir()).filter((f) => f.endsWith('.eml'));
  } catch {
    return '';
  }
  return files.map((f) => decoded(readFileSync(path.join(outboxDir(), f), 'utf8'))).find((text) => text.includes(needle)) ?? '';
}

/** Every mail whose text mentions all of `needles`, decoded (the outbox's file order says nothing about time). */
export function mailsMentioning(...needles: string[]): string[] {
  let files: string[];
  try {
    files = readdirSync(outboxDir()).filter((f) => f.endsWith('.eml'));
  } catch {
    return [];
  }
  return files.map((f) => decoded(readFileSync(path.join(outboxDir(), f), 'utf8'))).filter((text) => needles.every((n) => text.includes(n)));
}
