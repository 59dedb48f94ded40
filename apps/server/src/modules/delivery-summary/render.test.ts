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
  recipients: [{ recipient: 'referrals@riverview.direct.example.org', channel: 'Direct', status: 'Failed', reason: name, updatedAt: new Date('2026-03-02T15:05:00Z'), deliveredAt: null }],
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
});
