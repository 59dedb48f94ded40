import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditEvents } from '../../db/schema/audit.ts';
import { users } from '../../db/schema/users.ts';
import { useTestApp } from '../../test/app.ts';

const LAKESIDE_USER = 'user@lakeside.example.org';
const PATIENT = { firstName: 'Maria', lastName: 'Alvarez', birthDate: '1958-04-12', gender: 'F' };

// issue 8 §5: listing patient messages and changing a patient are PHI access and write audit rows
// (who, organization, where from, what), with no PHI in them.
describe('audit of PHI in lists and patient changes', () => {
  const t = useTestApp();
  const db = () => t.handle.db;
  const rowsOf = async (eventType: string, userId: string) =>
    // In the order written: the organization's audit chain (created_at may come from the test's clock).
    db().select().from(auditEvents).where(and(eq(auditEvents.eventType, eventType), eq(auditEvents.userId, userId))).orderBy(auditEvents.chainSeq);
  const userIdOf = async (userName: string) => (await db().select({ id: users.id }).from(users).where(eq(users.userName, userName)))[0]!.id;

  it('writes one MessageListViewed row per Release list, Intake list and notifications call, without the search text', async () => {
    const userId = await userIdOf(LAKESIDE_USER);
    const before = (await rowsOf('MessageListViewed', userId)).length;

    const release = await t.call(LAKESIDE_USER, 'GET', '/api/messages?search=Alvarez&isDraft=false');
    expect(release.statusCode).toBe(200);
    let rows = await rowsOf('MessageListViewed', userId);
    expect(rows).toHaveLength(before + 1);
    const releaseRow = rows.at(-1)!;
    expect(releaseRow).toMatchObject({ userId, organizationId: expect.any(String), ip: '127.0.0.1', correlationId: null });
    expect(releaseRow.details).toEqual({
      list: 'Release',
      count: release.json().items.length,
      totalCount: release.json().totalCount,
      pageStart: 1,
      isDraft: false,
      searched: true,
      startDate: null,
      endDate: null,
      // The list's userId filter (issue 26) is recorded like the other filters.
      userId: null,
    });
    expect(JSON.stringify(releaseRow.details)).not.toContain('Alvarez');

    for (const url of ['/api/messages', '/api/intake']) {
      const intake = await t.call(LAKESIDE_USER, 'POST', url, { filter: 'Alvarez' });
      expect(intake.statusCode, intake.body).toBe(200);
      rows = await rowsOf('MessageListViewed', userId);
      expect(rows.at(-1)).toMatchObject({ userId, organizationId: releaseRow.organizationId, ip: '127.0.0.1' });
      expect(rows.at(-1)!.details).toMatchObject({ list: 'Intake', count: intake.json().items.length, totalCount: intake.json().totalCount, searched: true });
      expect(JSON.stringify(rows.at(-1)!.details)).not.toContain('Alvarez');
    }

    expect((await t.call(LAKESIDE_USER, 'GET', '/api/events')).statusCode).toBe(200);
    rows = await rowsOf('MessageListViewed', userId);
    expect(rows).toHaveLength(before + 4);
    expect(rows.at(-1)!.details).toMatchObject({ list: 'Events' });

    // The Administrator's lists of message events and tracked referrals name subjects and patients too.
    const adminId = await userIdOf('admin@lakeside.example.org');
    expect((await t.call('admin@lakeside.example.org', 'GET', '/api/messages/events')).statusCode).toBe(200);
    expect((await rowsOf('MessageListViewed', adminId)).at(-1)!.details).toMatchObject({ list: 'MessageEvents' });
    const tracked = await t.call('admin@lakeside.example.org', 'POST', '/api/conversations/tracked', {});
    expect(tracked.statusCode, tracked.body).toBe(200);
    expect((await rowsOf('MessageListViewed', adminId)).at(-1)!.details).toMatchObject({ list: 'TrackedReferrals', totalCount: tracked.json().totalCount });
  });

  it('writes PatientChanged when a draft’s patient is saved, by PUT .../patient or with the draft', async () => {
    const userId = await userIdOf(LAKESIDE_USER);
    const created = await t.call(LAKESIDE_USER, 'PUT', '/api/messages', { subject: 'Referral', patient: PATIENT });
    expect(created.statusCode).toBe(200);
    const id = created.json().id as string;
    const auditedFor = async () => (await rowsOf('PatientChanged', userId)).filter((r) => r.correlationId === id);
    expect(await auditedFor()).toHaveLength(1);

    const saved = await t.call(LAKESIDE_USER, 'PUT', `/api/messages/${id}/patient`, { ...PATIENT, lastName: 'Alvarez-Ruiz' });
    expect(saved.statusCode).toBe(200);
    const rows = await auditedFor();
    expect(rows).toHaveLength(2);
    expect(rows[1]).toMatchObject({ userId, organizationId: expect.any(String), ip: '127.0.0.1', correlationId: id });
    expect(JSON.stringify(rows[1]!.details ?? {})).not.toContain('Alvarez');

    // A save that leaves the patient alone is no patient change.
    expect((await t.call(LAKESIDE_USER, 'PUT', `/api/messages/${id}`, { subject: 'Referral (2)' })).statusCode).toBe(200);
    expect(await auditedFor()).toHaveLength(2);
  });
});
