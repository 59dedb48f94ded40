import { describe, expect, it } from 'vitest';
import { INTERNATIONAL_NAMES, pdfLines } from '../../test/pdf-lines.ts';
import { renderDeliverySummary, type DeliverySummaryInput } from './render.ts';

const summary = (name: string): DeliverySummaryInput => ({
  brandName: 'ClinicRelay',
  organizationName: 'Lakeside Family Medicine',
  subject: name,
  fromAddress: 'intake@lakeside.direct.example.org',
  sentDate: new Date('2026-03-02T15:04:00Z'),
  patient: { name, birthDate: '1958-04-12' },
  recipients: [
    {
      recipient: 'referrals@riverview.direct.example.org',
      channel: 'Direct',
      status: 'Failed',
      reason: name,
      updatedAt: new Date('2026-03-02T15:05:00Z'),
      deliveredAt: null,
      timeline: [
        { stage: 'Queued', at: new Date('2026-03-02T15:04:00Z'), detail: null },
        { stage: 'Sent', at: new Date('2026-03-02T15:04:30Z'), detail: '250 2.0.0 Ok' },
        { stage: 'Failed', at: new Date('2026-03-02T16:04:30Z'), detail: name },
      ],
    },
  ],
  attachments: [{ fileName: name, documentType: 'Referral Note', documentDate: '2026-03-01', sizeInBytes: 2048 }],
  generatedAt: new Date('2026-03-02T16:00:00Z'),
});

describe('Delivery Summary PDF', () => {
  it('prints the patient, subject, delivery reason and file name in their own script (issue 9)', async () => {
    for (const name of INTERNATIONAL_NAMES) {
      const [page] = await pdfLines(await renderDeliverySummary(summary(name)));
      expect(page).toContain(`Subject: ${name}`);
      expect(page).toContain(`Patient: ${name}`);
      // The row's cells side by side (the date wraps to a second line in its narrow column).
      expect(page).toContain(`referrals@riverview.direct.example.org Direct Failed ${name} 03/02/2026`);
      expect(page).toContain(`${name} Referral Note 03/01/2026 2.0 k`);
      expect(page!.join('\n')).not.toContain('?');
    }
  });

  it('prints a Direct recipient’s timeline under its row: each stage with its time and detail, the failure’s reason last (issue 12 §4)', async () => {
    const [page] = await pdfLines(await renderDeliverySummary(summary('No delivery notification received')));
    const queued = page!.indexOf('Queued · 03/02/2026 15:04 UTC');
    expect(queued).toBeGreaterThan(page!.findIndex((line) => line.startsWith('referrals@riverview.direct.example.org Direct Failed')));
    expect(page!.slice(queued, queued + 3)).toEqual([
      'Queued · 03/02/2026 15:04 UTC',
      'Sent to the recipient’s mail server · 03/02/2026 15:04 UTC · 250 2.0.0 Ok',
      'Failed · 03/02/2026 16:04 UTC · No delivery notification received',
    ]);
    // Before the Attachments section: the lines belong to the recipient's row.
    expect(queued).toBeLessThan(page!.indexOf('Attachments'));
  });

  it('prints no timeline for a fax recipient', async () => {
    const input = summary('Lee');
    input.recipients = input.recipients.map((r) => ({ ...r, recipient: '5551234567', channel: 'Fax' }));
    const [page] = await pdfLines(await renderDeliverySummary(input));
    expect(page!.some((line) => line.startsWith('Queued'))).toBe(false);
  });
});
