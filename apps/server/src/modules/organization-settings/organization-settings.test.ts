import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { DEFAULT_BRAND_NAME } from '@clinicrelay/contracts/messages.ts';
import { organizations } from '../../db/schema/organizations.ts';
import { useTestApp } from '../../test/app.ts';

describe('Organization settings', () => {
  const t = useTestApp();

  it('gives each organization its own settings; flags the back office never set are off', async () => {
    const lakeside = await t.call('user@lakeside.example.org', 'GET', '/api/organizationsettings');
    expect(lakeside.statusCode).toBe(200);
    expect(lakeside.json()).toEqual({
      brandName: DEFAULT_BRAND_NAME,
      suppressCoverPage: false,
      suppressMessageBody: false,
      suppressAttachmentDescriptions: false,
      deliverySummaryEnableDownload: true,
      exportMode: 'Export',
      exportOption: 'PatientFolder',
      exportDirectoryType: null,
      exportVisitDirectory: true,
      nonPatientExport: false,
    });
    const riverview = await t.call('admin@riverview.example.org', 'GET', '/api/organizationsettings');
    expect(riverview.json()).toMatchObject({ suppressCoverPage: true, deliverySummaryEnableDownload: true, exportMode: 'Export', exportOption: 'SingleFolder', exportVisitDirectory: false });
    const hillcrest = await t.call('admin@hillcrest.example.org', 'GET', '/api/organizationsettings');
    expect(hillcrest.json()).toMatchObject({ suppressCoverPage: false, deliverySummaryEnableDownload: false });
  });

  it('exports by default, and reads the interoperability settings the back office stored', async () => {
    const hillcrest = (await t.call('admin@hillcrest.example.org', 'GET', '/api/organizationsettings')).json();
    expect(hillcrest).toMatchObject({ exportMode: 'Export', exportOption: null, exportDirectoryType: null, exportVisitDirectory: false, nonPatientExport: false });

    await t.handle.db
      .update(organizations)
      .set({ settings: { exportMode: 'Print', exportOption: 'PatientFolder', exportDirectoryType: 'ByDate', exportVisitDirectory: true, nonPatientExport: true } })
      .where(eq(organizations.subdomain, 'hillcrest'));
    expect((await t.call('admin@hillcrest.example.org', 'GET', '/api/organizationsettings')).json()).toMatchObject({
      exportMode: 'Print',
      exportOption: 'PatientFolder',
      exportDirectoryType: 'ByDate',
      exportVisitDirectory: true,
      nonPatientExport: true,
    });
    // Another organization's settings are its own.
    expect((await t.call('user@lakeside.example.org', 'GET', '/api/organizationsettings')).json().exportMode).toBe('Export');
  });
});
