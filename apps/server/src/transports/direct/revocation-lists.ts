import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { revocationLists } from '../../db/schema/certificates.ts';

// Keeps what the last fetch of a CRL gave, for the dashboard's "CRL refresh failing" alert (issue 27 §1). A write that
// fails is dropped: the check of the certificate goes on without it.
export async function recordRevocationList(db: Database, url: string, problem: string | null): Promise<void> {
  const now = sql`now()`;
  const values = problem === null ? { url, lastSuccessAt: now, lastError: null, failingSince: null } : { url, lastError: problem.slice(0, 1000), lastErrorAt: now, failingSince: now };
  const set =
    problem === null
      ? { lastSuccessAt: now, lastError: null, failingSince: null }
      : { lastError: values.lastError, lastErrorAt: now, failingSince: sql`coalesce(${revocationLists.failingSince}, now())` };
  await db.insert(revocationLists).values(values).onConflictDoUpdate({ target: revocationLists.url, set });
}
