import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { blobs } from '../../db/schema/blobs.ts';
import { patientExtractions } from '../../db/schema/intake.ts';
import { attachments, messages, patients } from '../../db/schema/messages.ts';
import { organizations } from '../../db/schema/organizations.ts';
import { useTestApp } from '../../test/app.ts';

const URL_OF = (query: string) => `/api/diagnostics/siftmetrics?${query}`;

describe('sift metrics (GET /api/diagnostics/siftmetrics)', () => {
  const t = useTestApp();

  // One extraction run on a message of the organization, with what the user saved on the message's patient.
  async function run(subdomain: string, values: Partial<typeof patientExtractions.$inferInsert>, saved?: Partial<typeof patients.$inferInsert>) {
    const [org] = await t.handle.db.select({ id: organizations.id }).from(organizations).where(eq(organizations.subdomain, subdomain));
    const organizationId = org!.id;
    const [message] = await t.handle.db.insert(messages).values({ organizationId, direction: 'Inbound', isDraft: false, status: 'Received' }).returning({ id: messages.id });
    const [blob] = await t.handle.db.insert(blobs).values({ organizationId, sizeInBytes: 1, sha256: 'x', iv: 'x', authTag: 'x' }).returning({ id: blobs.id });
    const [attachment] = await t.handle.db
      .insert(attachments)
      .values({ messageId: message!.id, organizationId, fileName: 'a.pdf', mimeType: 'application/pdf', sizeInBytes: 1, originalBlobId: blob!.id, currentBlobId: blob!.id })
      .returning({ id: attachments.id });
    if (saved) await t.handle.db.insert(patients).values({ messageId: message!.id, organizationId, ...saved });
    await t.handle.db.insert(patientExtractions).values({ organizationId, messageId: message!.id, attachmentId: attachment!.id, status: 'Completed', createdAt: new Date('2025-06-15T10:00:00Z'), ...values });
  }

  it('sums the runs per tenant against what users kept or corrected, sortable by tenant and count', async () => {
    const found = { firstName: 'Ana', middleName: null, lastName: 'Reyes', birthDate: '1980-02-03', gender: 'F' as const };
    // Kept as found: first, last, DOB and gender right.
    await run('lakeside', { elapsedMs: 100, perfectMatch: true, confidenceIsVeryHigh: true, patient: found }, { firstName: 'ana', lastName: 'Reyes', birthDate: '1980-02-03', gender: 'F' });
    // Corrected: the last name was wrong.
    await run('lakeside', { elapsedMs: 300, conflicts: true, patient: { ...found, lastName: 'Reyez' } }, { firstName: 'Ana', lastName: 'Reyes', birthDate: '1980-02-03', gender: 'F' });
    await run('lakeside', { elapsedMs: 200, noText: true });
    await run('lakeside', { elapsedMs: 400, error: true, status: 'Failed' });
    await run('riverview', { elapsedMs: 50, noMatch: true });
    // Outside the range, and still running: not counted.
    await run('riverview', { elapsedMs: 50, createdAt: new Date('2025-08-01T00:00:00Z') });
    await run('riverview', { elapsedMs: 50, status: 'Processing' });

    const res = await t.call('reporting@example.org', 'GET', URL_OF('start=6/1/2025&end=6/30/2025&col=tenant&sortDir=asc'));
    expect(res.statusCode).toBe(200);
    const rows = res.json<{ id: string }[]>();
    expect(rows.map((r) => r.id)).toEqual(['Lakeside Family Medicine', 'Riverview Cardiology']);
    expect(rows[0]).toMatchObject({ count: 4, elapsed: 250, noText: 25, error: 25, noMatch: 0, conflicts: 25, perfectMatch: 25, confidenceIsVeryHigh: 25, first: 50, middle: 0, last: 25, dob: 50, gender: 50 });
    expect(rows[1]).toMatchObject({ count: 1, elapsed: 50, noMatch: 100, first: 0 });

    const byCount = (await t.call('sysadmin@example.org', 'GET', URL_OF('start=2025-06-01&end=2025-06-30&col=count&sortDir=asc'))).json<{ id: string }[]>();
    expect(byCount.map((r) => r.id)).toEqual(['Riverview Cardiology', 'Lakeside Family Medicine']);
    const desc = (await t.call('sysadmin@example.org', 'GET', URL_OF('start=2025-06-01&end=2025-06-30&col=tenant&sortDir=desc'))).json<{ id: string }[]>();
    expect(desc.map((r) => r.id)).toEqual(['Riverview Cardiology', 'Lakeside Family Medicine']);
    expect((await t.call('sysadmin@example.org', 'GET', URL_OF('start=2024-01-01&end=2024-01-31'))).json()).toEqual([]);
  });

  it('refuses a reversed range and an unknown sort column', async () => {
    const reversed = await t.call('sysadmin@example.org', 'GET', URL_OF('start=2025-06-30&end=2025-06-01'));
    expect(reversed.statusCode).toBe(400);
    expect(reversed.body).toContain('Start Date must be smaller or equal than End Date.');
    expect((await t.call('sysadmin@example.org', 'GET', URL_OF('start=2025-06-01&end=2025-06-30&col=elapsed'))).statusCode).toBe(400);
  });

  it('is for SysAdmin and SysAdminReporting: a network administrator and organization users get 403', async () => {
    for (const user of ['sysadmin@example.org', 'reporting@example.org']) expect((await t.call(user, 'GET', URL_OF('start=2025-06-01&end=2025-06-30'))).statusCode).toBe(200);
    for (const user of ['netadmin@example.org', 'admin@lakeside.example.org', 'user@lakeside.example.org']) expect((await t.call(user, 'GET', URL_OF('start=2025-06-01&end=2025-06-30'))).statusCode).toBe(403);
    expect((await t.call(null, 'GET', URL_OF('start=2025-06-01&end=2025-06-30'))).statusCode).toBe(401);
  });
});
