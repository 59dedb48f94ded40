import { describe, expect, it } from 'vitest';
import { DEFAULT_BRAND_NAME } from '@clinicrelay/contracts/messages.ts';
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
    });
    const riverview = await t.call('admin@riverview.example.org', 'GET', '/api/organizationsettings');
    expect(riverview.json()).toMatchObject({ suppressCoverPage: true, deliverySummaryEnableDownload: true });
    const hillcrest = await t.call('admin@hillcrest.example.org', 'GET', '/api/organizationsettings');
    expect(hillcrest.json()).toMatchObject({ suppressCoverPage: false, deliverySummaryEnableDownload: false });
  });
});
