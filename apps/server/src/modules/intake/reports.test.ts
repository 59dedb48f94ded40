import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { DEFAULT_BRAND_NAME } from '@clinicrelay/contracts/messages.ts';
import { brands } from '../../db/schema/back-office.ts';
import { organizations } from '../../db/schema/organizations.ts';
import { useTestApp } from '../../test/app.ts';
import { csvCell } from '../../platform/csv.ts';
import { DEMO, insertInbound } from './test-inbound.ts';

const DAY_MS = 86_400_000;

describe('Intake for administrators: statistics, the events report and Activity', () => {
  const t = useTestApp();
  const db = () => t.handle.db;

  it('gives the organization’s last 30 days at a glance, every day listed oldest first', async () => {
    const before = (await t.call(DEMO.lakesideAdmin, 'GET', '/api/messages/statistics')).json();
    const today = new Date(`${t.clock.now.toISOString().slice(0, 10)}T12:00:00Z`);
    await insertInbound(db(), { subject: 'stats urgent fax', to: DEMO.lakesideFax, sourceType: 'Fax', isUrgent: true, receivedAt: new Date(today.getTime() - 2 * DAY_MS) });
    await insertInbound(db(), { subject: 'stats failed', to: DEMO.lakesideDirect, status: 'Failed', receivedAt: today });
    await insertInbound(db(), { subject: 'stats too old', to: DEMO.lakesideDirect, receivedAt: new Date(today.getTime() - 31 * DAY_MS) });

    const res = await t.call(DEMO.lakesideAdmin, 'GET', '/api/messages/statistics');
    expect(res.statusCode).toBe(200);
    const stats = res.json();
    expect(stats.received - before.received).toBe(2);
    expect(stats.unread - before.unread).toBe(2);
    expect(stats.unprocessed - before.unprocessed).toBe(2);
    expect(stats.urgent - before.urgent).toBe(1);
    expect(stats.failed - before.failed).toBe(1);
    expect((stats.bySourceType.Fax ?? 0) - (before.bySourceType.Fax ?? 0)).toBe(1);
    expect(stats.perDay).toHaveLength(30);
    expect(stats.perDay.at(-1).date).toBe(today.toISOString().slice(0, 10));
    expect(stats.perDay[0].date).toBe(new Date(today.getTime() - 29 * DAY_MS).toISOString().slice(0, 10));
    expect(stats.perDay.at(-1).count - before.perDay.at(-1).count).toBe(1);
    expect(stats.perDay.at(-3).count - before.perDay.at(-3).count).toBe(1);

    expect((await t.call(DEMO.lakesideUser, 'GET', '/api/messages/statistics')).statusCode).toBe(403);
  });

  it('downloads the message events as a CSV file named by brand and time, escaped and safe to open', async () => {
    const hostile = await insertInbound(db(), { subject: '=HYPERLINK("http://evil.example","Click"), "quoted"', to: DEMO.lakesideDirect, from: '+15035550199@evil.example' });
    await t.call(DEMO.lakesideAdmin, 'PUT', `/api/messages/${hostile.id}/read`);
    const res = await t.call(DEMO.lakesideAdmin, 'GET', '/api/messages/eventsreport?eventTypes=Read');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    const disposition = String(res.headers['content-disposition']);
    expect(disposition).toMatch(new RegExp(`^attachment; filename="${DEFAULT_BRAND_NAME}_\\d{4}-\\d{2}-\\d{2}_\\d{2}-\\d{2}-\\d{2}\\.csv"$`));
    const lines = res.body.trimEnd().split('\r\n');
    expect(lines[0]).toBe('Date (UTC),Event Type,User,Subject,From,To');
    const row = lines.find((l) => l.includes('HYPERLINK'))!;
    expect(row).toMatch(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2},Read,Laura Lake,/);
    expect(row).toContain(`"'=HYPERLINK(""http://evil.example"",""Click""), ""quoted"""`);
    expect(row).toContain(`,'+15035550199@evil.example,${DEMO.lakesideDirect}`);
    expect(lines.slice(1).every((l) => l.includes(',Read,'))).toBe(true);

    // The file is named by the organization's own brand: Lakeside served under another brand gets that brand's name.
    await db().insert(brands).values({ id: 'acme-health', name: 'Acme Health' }).onConflictDoNothing();
    await db().update(organizations).set({ brandId: 'acme-health' }).where(eq(organizations.subdomain, 'lakeside'));
    try {
      const branded = await t.call(DEMO.lakesideAdmin, 'GET', '/api/messages/eventsreport?eventTypes=Read');
      expect(String(branded.headers['content-disposition'])).toMatch(/^attachment; filename="AcmeHealth_\d{4}-\d{2}-\d{2}_\d{2}-\d{2}-\d{2}\.csv"$/);
      const riverview = await t.call(DEMO.riverviewAdmin, 'GET', '/api/messages/eventsreport');
      expect(String(riverview.headers['content-disposition'])).toMatch(new RegExp(`^attachment; filename="${DEFAULT_BRAND_NAME}_`));
    } finally {
      await db().update(organizations).set({ brandId: 'clinicrelay' }).where(eq(organizations.subdomain, 'lakeside'));
    }

    // Riverview's report never holds Lakeside's events; a User may not download it.
    expect((await t.call(DEMO.riverviewAdmin, 'GET', '/api/messages/eventsreport')).body).not.toContain('HYPERLINK');
    expect((await t.call(DEMO.lakesideUser, 'GET', '/api/messages/eventsreport')).statusCode).toBe(403);
    expect((await t.call(DEMO.lakesideAdmin, 'GET', '/api/messages/eventsreport?pageSize=10001')).statusCode).toBe(400);
    expect((await t.call(DEMO.lakesideAdmin, 'GET', '/api/messages/eventsreport?start=2099-01-01')).body.trimEnd().split('\r\n')).toHaveLength(1);
  });

  it('escapes every CSV cell by RFC 4180 and defuses formulas', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell(null)).toBe('');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('line\nbreak')).toBe('"line\nbreak"');
    for (const lead of ['=', '+', '-', '@']) expect(csvCell(`${lead}1+1`)).toBe(`'${lead}1+1`);
  });

  it('shows a message’s Activity to administrators only, reads included', async () => {
    const { id } = await insertInbound(db(), { subject: 'activity', to: DEMO.lakesideDirect });
    await t.call(DEMO.lakesideUser, 'GET', `/api/messages/${id}`);
    await t.call(DEMO.lakesideUser, 'PUT', `/api/messages/${id}/process`, { isProcessed: true, processType: 'PDFExport' });
    expect((await t.call(DEMO.lakesideUser, 'GET', `/api/audit/message/${id}`)).statusCode).toBe(403);
    const activity = await t.call(DEMO.lakesideAdmin, 'GET', `/api/audit/message/${id}`);
    expect(activity.statusCode).toBe(200);
    expect(activity.json().items.map((i: { eventType: string }) => i.eventType).sort()).toEqual(['MessageProcessed', 'MessageViewed']);
  });
});
