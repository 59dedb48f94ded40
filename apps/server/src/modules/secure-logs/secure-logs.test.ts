import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages as texts, serverErrorWithReference } from '@clinicrelay/contracts/errors.ts';
import { buildApp } from '../../app.ts';
import type { App } from '../../platform/http.ts';
import type { DatabaseHandle } from '../../db/client.ts';
import { queryRows } from '../../db/client.ts';
import { auth } from '../../platform/auth/guard.ts';
import { retentionRules } from '../../platform/retention.ts';
import { findSecureLog, recordSecureLog, redactPhi } from '../../platform/secure-logs.ts';
import { testConfig, useTestApp } from '../../test/app.ts';
import { createTestDatabase } from '../../test/database.ts';

const SYSADMIN = 'sysadmin@example.org';

describe('secure logs: an answer 500 names a reference id, support finds the error under it', () => {
  const t = useTestApp();
  const lookup = (user: string | null, id: string) => t.call(user, 'GET', `/api/admin/securelogs/${id}`);

  it('stores a failed request under the id the user was shown, with route, user and organization', async () => {
    // A query the database refuses mid-request (its column gone): the route answers 500.
    const { accessToken } = await t.login('admin@lakeside.example.org');
    await t.handle.db.execute(sql`alter table audit_events rename column event_type to event_type_gone`);
    const failed = await t.call(accessToken, 'GET', '/api/audit/user?startDate=2026-01-01').finally(() => t.handle.db.execute(sql`alter table audit_events rename column event_type_gone to event_type`));
    expect(failed.statusCode).toBe(500);
    const { referenceId } = failed.json<{ referenceId: string }>();
    expect(referenceId).toMatch(/^[0-9a-f]{10}$/);
    expect(failed.json()).toEqual({ message: serverErrorWithReference(referenceId), referenceId });
    expect(failed.json().message).toBe(`${texts.serverError} Reference id: ${referenceId}.`);

    const [lakesideAdmin] = await queryRows<{ id: string; organization_id: string }>(
      t.handle.db,
      sql`select u.id, m.organization_id from users u join memberships m on m.user_id = u.id where u.user_name = 'admin@lakeside.example.org'`,
    );
    const found = await lookup(SYSADMIN, referenceId.toUpperCase());
    expect(found.statusCode, found.body).toBe(200);
    expect(found.json()).toEqual({
      referenceId,
      date: expect.any(String),
      message: 'DatabaseError: Database query failed (SQLSTATE 42703)',
      statusCode: 500,
      method: 'GET',
      // The route, never the URL with its query.
      route: '/api/audit/user',
      requestId: expect.any(String),
      userId: lakesideAdmin!.id,
      organizationId: lakesideAdmin!.organization_id,
      stack: expect.stringContaining('at '),
    });
  });

  it('answers 404 for an unknown id, 400 for one that is not an id', async () => {
    expect((await lookup(SYSADMIN, '0123456789')).json()).toEqual({ message: 'No log was found for this reference id.' });
    expect((await lookup(SYSADMIN, '0123456789')).statusCode).toBe(404);
    expect((await lookup(SYSADMIN, 'not-an-id')).statusCode).toBe(400);
  });

  it('is for system administrators only', async () => {
    for (const user of ['reporting@example.org', 'netadmin@example.org', 'admin@lakeside.example.org', 'user@lakeside.example.org'])
      expect((await lookup(user, '0123456789')).statusCode, user).toBe(403);
    expect((await lookup(null, '0123456789')).statusCode).toBe(401);
  });

  it('keeps logs for the retention days and sweeps older ones', async () => {
    const error = { type: 'Error', message: 'old', stack: '' };
    await recordSecureLog(t.handle.db, { referenceId: 'aaaaaaaaaa', statusCode: 500, method: 'GET', route: '/x', error }, new Date('2026-01-01T00:00:00Z'));
    await recordSecureLog(t.handle.db, { referenceId: 'bbbbbbbbbb', statusCode: 500, method: 'GET', route: '/x', error }, new Date('2026-03-31T00:00:00Z'));
    const rule = retentionRules(t.config).find((r) => r.what === 'secure logs')!;
    expect(rule.days).toBe(90);
    // What the hourly sweep deletes on 2026-04-02: the cutoff is the retention before then.
    expect(await rule.sweep(t.handle.db, new Date(Date.parse('2026-04-02T00:00:00Z') - rule.days * 86_400_000))).toBe(1);
    expect(await findSecureLog(t.handle.db, 'aaaaaaaaaa')).toBeUndefined();
    expect(await findSecureLog(t.handle.db, 'bbbbbbbbbb')).toBeDefined();
    expect(t.config.secureLogRetentionDays).toBe(90);
  });
});

describe('a stored error carries no PHI', () => {
  let handle: DatabaseHandle;
  let app: App;
  beforeAll(async () => {
    handle = await createTestDatabase();
    app = await buildApp({ config: testConfig(), db: handle.db, logger: false });
    // A test-only route outside /api: a handler bug whose message echoes what the user typed.
    app.get('/test/explode', async (request) => {
      const caller = request.authContext ? auth(request) : null;
      throw new Error(`No chart for Henrietta Quillfeather <hq@mail.example.com>, MRN 99812734, born 04/12/1961, SSN 123-45-6789, phone (503) 555-0100 (${caller?.userId ?? 'anonymous'})`);
    });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await handle.close();
  });

  it('redacts e-mail addresses, numbers, dates, SSNs and phone numbers before storing', async () => {
    const res = await app.inject({ method: 'GET', url: '/test/explode?patient=Henrietta' });
    expect(res.statusCode).toBe(500);
    const row = await findSecureLog(handle.db, res.json<{ referenceId: string }>().referenceId);
    expect(row?.route).toBe('/test/explode');
    const stored = JSON.stringify(row);
    for (const value of ['hq@mail.example.com', '99812734', '04/12/1961', '123-45-6789', '555-0100', 'patient=Henrietta']) expect(stored).not.toContain(value);
    expect(row?.message).toBe('Error: No chart for Henrietta Quillfeather <[email]>, MRN [number], born [date], SSN [ssn], phone [phone] (anonymous)');
  });

  it('redactPhi leaves ordinary error text alone', () => {
    expect(redactPhi('Cannot read properties of undefined (reading "id") at line 42')).toBe('Cannot read properties of undefined (reading "id") at line 42');
  });
});
