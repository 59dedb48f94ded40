import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client.ts';
import { documentSources } from '../../db/schema/document-sources.ts';
import { intakeRules } from '../../db/schema/intake.ts';
import { messageEvents, messages } from '../../db/schema/messages.ts';
import { organizations } from '../../db/schema/organizations.ts';
import { useTestApp } from '../../test/app.ts';

const SYSADMIN = 'sysadmin@example.org';
const REPORTING = 'reporting@example.org';
const refused = ['netadmin@example.org', 'admin@lakeside.example.org', 'user@lakeside.example.org'];

const lines = (body: string) => body.split('\r\n').filter((l) => l.length > 0);
const STAMPED = /^attachment; filename="ClinicRelay_[A-Za-z]+_\d{4}-\d{2}-\d{2}_\d{2}-\d{2}-\d{2}\.csv"$/;

describe('reports (back-office-a §7 Reports (CSV))', () => {
  const t = useTestApp();
  const orgId = async (subdomain: string) => (await t.handle.db.select({ id: organizations.id }).from(organizations).where(eq(organizations.subdomain, subdomain)))[0]!.id;

  const routes = (lakeside: string): [string, string, unknown?][] => [
    ['GET', '/api/admin/reports/directaddresses'],
    ['GET', '/api/admin/reports/organizations'],
    ['GET', '/api/admin/reports/users'],
    ['GET', '/api/admin/reports/contacts-usage-statistics'],
    ['GET', '/api/admin/reports/devices?startDate=1/1/2020&endDate=12/31/2099'],
    ['GET', '/api/admin/reports/events?start=2020-01-01&end=2099-12-31&pageSize=10000&pageNumber=1'],
    ['POST', '/api/admin/reports/addresses/unassigned', [lakeside]],
    ['GET', '/api/admin/reports/organizationoptions'],
    ['POST', '/api/admin/reports/intakerules', [lakeside]],
    ['POST', '/api/admin/reports/downloadprofiles', [lakeside]],
  ];

  it('answers every report as CSV to SysAdmin and SysAdminReporting, and 403 to a network administrator and organization users', async () => {
    const lakeside = await orgId('lakeside');
    for (const [method, url, body] of routes(lakeside)) {
      for (const user of [SYSADMIN, REPORTING]) {
        const res = await t.call(user, method, url, body);
        expect(res.statusCode, `${user} ${method} ${url} ${res.body}`).toBe(200);
        if (url.endsWith('organizationoptions')) {
          expect(res.json()).toContainEqual({ id: lakeside, name: 'Lakeside Family Medicine' });
          continue;
        }
        expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
        expect(res.headers['cache-control']).toBe('no-store');
      }
      for (const user of refused) {
        const res = await t.call(user, method, url, body);
        expect(res.statusCode, `${user} ${method} ${url}`).toBe(403);
      }
      expect((await t.call(null, method, url, body)).statusCode).toBe(401);
    }
  });

  it('names files by brand and timestamp, and the three organization reports by the names the spec gives', async () => {
    const lakeside = await orgId('lakeside');
    const names = [];
    for (const [method, url, body] of routes(lakeside)) names.push((await t.call(SYSADMIN, method, url, body)).headers['content-disposition']);
    for (const name of names.slice(0, 6)) expect(name).toMatch(STAMPED);
    expect(names.slice(6).filter(Boolean)).toEqual([
      'attachment; filename="Unassigned_Addresses.csv"',
      'attachment; filename="Intake_Rules.csv"',
      'attachment; filename="Download_Profiles.csv"',
    ]);
  });

  it('lists Direct addresses, organizations with their counts, users with their roles, contacts statistics and sign-in devices', async () => {
    const direct = (await t.call(SYSADMIN, 'GET', '/api/admin/reports/directaddresses')).body;
    expect(lines(direct)[0]).toBe('Organization Id,Organization,Subdomain,Direct Address,Status,Created');
    expect(direct).toContain('Lakeside Family Medicine,lakeside,intake@lakeside.direct.example.org,Activated,');

    const orgs = lines((await t.call(SYSADMIN, 'GET', '/api/admin/reports/organizations')).body);
    expect(orgs[0]).toContain('Id,Name,Subdomain,Brand,Type,Plan');
    expect(orgs.find((l) => l.includes(',Lakeside Family Medicine,lakeside,'))).toBeDefined();
    expect(orgs.length - 1).toBe((await t.handle.db.select({ id: organizations.id }).from(organizations)).length);

    const people = (await t.call(REPORTING, 'GET', '/api/admin/reports/users')).body;
    expect(people).toContain('sysadmin@example.org,Sam,Admin,');
    expect(people).toMatch(/reporting@example\.org,Rita,Reports,[^\r]*,System,SysAdminReporting,/);
    expect(people).toContain('Lakeside Family Medicine (Administrator)');

    const contacts = lines((await t.call(SYSADMIN, 'GET', '/api/admin/reports/contacts-usage-statistics')).body);
    expect(contacts[0]).toBe('Organization Id,Organization,Contacts,Contacts With Direct Address,Contacts With Fax,Invitations Sent,Last Contact Added,Last Invitation');

    // The sign-ins above are sessions: each is a device in today's range, none in a past one.
    const today = t.clock.now.toISOString().slice(0, 10);
    const devices = lines((await t.call(SYSADMIN, 'GET', `/api/admin/reports/devices?startDate=${today}&endDate=${today}`)).body);
    expect(devices[0]).toBe('Signed In,User Name,Organization,IP Address,Device,Last Seen,Expires,Signed Out');
    expect(devices.some((l) => l.includes(',reporting@example.org,'))).toBe(true);
    expect(lines((await t.call(SYSADMIN, 'GET', '/api/admin/reports/devices?startDate=01/01/2020&endDate=01/31/2020')).body)).toHaveLength(1);
  });

  it('refuses a date range that ends before it starts, with the spec wording', async () => {
    const res = await t.call(SYSADMIN, 'GET', '/api/admin/reports/devices?startDate=02/01/2026&endDate=01/01/2026');
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('Start Date must be smaller or equal than End Date.');
    expect((await t.call(SYSADMIN, 'GET', '/api/admin/reports/events?start=2026-01-01&end=2026-01-02&pageNumber=100')).statusCode).toBe(400);
    expect((await t.call(SYSADMIN, 'GET', '/api/admin/reports/events?start=13/45/2026&end=2026-01-02')).statusCode).toBe(400);
  });

  it('pages message events by page number and filters them by type', async () => {
    const lakeside = await orgId('lakeside');
    const [message] = await t.handle.db.insert(messages).values({ organizationId: lakeside, direction: 'Inbound', subject: 'Secret patient subject', isDraft: false, status: 'Received' }).returning({ id: messages.id });
    const base = Date.parse('2025-03-10T12:00:00Z');
    await t.handle.db.insert(messageEvents).values(
      Array.from({ length: 25 }, (_, i) => ({ messageId: message!.id, organizationId: lakeside, eventType: i % 5 === 0 ? 'Forwarded' : 'Viewed', createdAt: new Date(base + i * 1000) })),
    );
    const page = async (query: string) => lines((await t.call(SYSADMIN, 'GET', `/api/admin/reports/events?start=3/10/2025&end=3/10/2025&${query}`)).body).slice(1);
    const all = await page('pageSize=10000&pageNumber=1');
    expect(all).toHaveLength(25);
    expect(all.join()).not.toContain('Secret patient subject');
    const second = await page('pageSize=10&pageNumber=2');
    expect(second).toEqual(all.slice(10, 20));
    expect(await page('pageSize=10&pageNumber=3')).toEqual(all.slice(20));
    expect(await page('pageSize=10&pageNumber=4')).toEqual([]);
    const forwarded = await page('eventTypes=Forwarded');
    expect(forwarded).toHaveLength(5);
    expect(forwarded.every((l) => l.includes(',Forwarded,'))).toBe(true);
  });

  it('reports unassigned addresses, intake rules and download profiles of the chosen organizations, formula cells neutralized', async () => {
    const lakeside = await orgId('lakeside');
    const riverview = await orgId('riverview');
    await t.handle.db.insert(documentSources).values({ organizationId: lakeside, type: 'Direct', fullAddress: 'nobody@lakeside.direct.example.org', status: 1 });
    await t.handle.db.insert(intakeRules).values({ organizationId: lakeside, name: '=HYPERLINK("http://evil.example")', toAddresses: ['nobody@lakeside.direct.example.org'] });

    const unassigned = (await t.call(SYSADMIN, 'POST', '/api/admin/reports/addresses/unassigned', [lakeside])).body;
    expect(lines(unassigned)[0]).toBe('Organization Id,Organization,Type,Address,Status,Created');
    // A rule names it but brings it to nobody (not global, no users): still unassigned.
    expect(unassigned).toContain(',Direct,nobody@lakeside.direct.example.org,Activated,');
    expect(unassigned).not.toContain('intake@lakeside.direct.example.org');
    expect(unassigned).not.toContain('Riverview');

    const rules = (await t.call(SYSADMIN, 'POST', '/api/admin/reports/intakerules', [lakeside])).body;
    expect(rules).toContain(`"'=HYPERLINK(""http://evil.example"")",nobody@lakeside.direct.example.org,,Any,No,,`);
    expect(rules).not.toContain('Riverview Cardiology');

    const profiles = lines((await t.call(SYSADMIN, 'POST', '/api/admin/reports/downloadprofiles', [lakeside, riverview])).body);
    expect(profiles[0]).toBe('Organization Id,Organization,Export Mode,Export Option,Export Directory Type,Visit Directory,Non-Patient Export,Delivery Summary Download');
    expect(profiles.slice(1).map((l) => l.split(',').slice(1).join(','))).toEqual(['Lakeside Family Medicine,Export,PatientFolder,,Yes,No,Yes', 'Riverview Cardiology,Export,SingleFolder,,No,No,Yes']);
    // No organization chosen: every organization.
    const every = lines((await t.call(SYSADMIN, 'POST', '/api/admin/reports/downloadprofiles', [])).body);
    expect(every.length - 1).toBe((await t.handle.db.select({ id: organizations.id }).from(organizations)).length);
    expect((await t.call(SYSADMIN, 'POST', '/api/admin/reports/intakerules', ['not-an-id'])).statusCode).toBe(400);
  });

  it('writes an audit row for each report downloaded', async () => {
    await t.call(REPORTING, 'GET', '/api/admin/reports/users');
    const rows = await queryRows<{ details: { report: string } }>(t.handle.db, sql`select details from audit_events where event_type = 'ReportDownloaded' and user_name = 'reporting@example.org'`);
    expect(rows.map((r) => r.details.report)).toContain('users');
  });
});
