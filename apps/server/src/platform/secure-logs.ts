import { randomBytes } from 'node:crypto';
import { eq, lt } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { secureLogs } from '../db/schema/secure-logs.ts';

// The error as serializeError reduced it (errors.ts imports this file, so its type is restated here).
type SerializedError = { type: string; message: string; stack: string } & Record<string, unknown>;

// back-office-a Secure logs: every answer 500 names a short reference id; the error is kept under it for support.

// Ten lowercase hex characters: short enough to read over the phone, 2^40 ids so two errors never share one.
export const newReferenceId = () => randomBytes(5).toString('hex');
export const REFERENCE_ID = /^[0-9a-f]{10}$/;

// What may identify a patient inside an error text: e-mail addresses, SSNs, dates, phone numbers, long numbers
// (MRNs, account numbers). Names cannot be told from other words; the route pattern (never the URL) and
// serializeError (never a query's values) keep most of them out in the first place.
const PHI_PATTERNS: [RegExp, string][] = [
  [/[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g, '[email]'],
  [/\b\d{3}-\d{2}-\d{4}\b/g, '[ssn]'],
  [/\b\d{1,4}[/-]\d{1,2}[/-]\d{2,4}\b/g, '[date]'],
  [/(?:\+?1[\s.-]?)?\(?\b\d{3}\)?[\s.-]\d{3}[\s.-]\d{4}\b/g, '[phone]'],
  [/\b\d{6,}\b/g, '[number]'],
];

export function redactPhi(text: string): string {
  return PHI_PATTERNS.reduce((t, [pattern, label]) => t.replace(pattern, label), text);
}

const redactDeep = (value: unknown): unknown => {
  if (typeof value === 'string') return redactPhi(value);
  if (Array.isArray(value)) return value.map(redactDeep);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactDeep(v)]));
  return value;
};

export interface SecureLogEntry {
  referenceId: string;
  statusCode: number;
  method: string;
  // The route pattern (/api/messages/:id), never the URL: query strings carry searches for patients.
  route: string;
  requestId?: string | undefined;
  userId?: string | null | undefined;
  organizationId?: string | null | undefined;
  error: SerializedError;
}

export async function recordSecureLog(db: Database, entry: SecureLogEntry, at?: Date): Promise<void> {
  const error = redactDeep(entry.error) as SerializedError;
  await db
    .insert(secureLogs)
    .values({
      referenceId: entry.referenceId,
      statusCode: entry.statusCode,
      method: entry.method,
      route: entry.route,
      requestId: entry.requestId ?? null,
      userId: entry.userId ?? null,
      organizationId: entry.organizationId ?? null,
      message: `${error.type}: ${error.message}`.slice(0, 2000),
      error,
      ...(at ? { createdAt: at } : {}),
    })
    .onConflictDoNothing();
}

export async function findSecureLog(db: Database, referenceId: string) {
  const [row] = await db.select().from(secureLogs).where(eq(secureLogs.referenceId, referenceId));
  return row;
}

// Removes the logs older than the cutoff (SECURE_LOG_RETENTION_DAYS, 90 by default, before now); returns how many.
export async function sweepSecureLogs(db: Database, cutoff: Date): Promise<number> {
  const removed = await db.delete(secureLogs).where(lt(secureLogs.createdAt, cutoff)).returning({ id: secureLogs.referenceId });
  return removed.length;
}
