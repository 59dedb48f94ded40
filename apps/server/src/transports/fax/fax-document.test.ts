import { describe, expect, it } from 'vitest';
import { INTERNATIONAL_NAMES, pdfLines } from '../../test/pdf-lines.ts';
import { renderFaxDocument } from './fax-document.ts';

describe('fax document', () => {
  it('prints names in any script on the cover sheet and the message body page (issue 9)', async () => {
    for (const name of INTERNATIONAL_NAMES) {
      const { pdf, pageCount } = await renderFaxDocument({
        from: name,
        to: '5551234567',
        date: new Date('2026-03-02T15:04:00Z'),
        subject: name,
        body: `Patient:\n${name}`,
        includeCoverPage: true,
        includeMessageBody: true,
        includeAttachmentDescriptions: false,
        attachments: [],
      });
      const [cover, body] = await pdfLines(pdf);
      expect(pageCount).toBe(2);
      expect(cover!.slice(0, 6)).toEqual(['FAX', `From: ${name}`, 'To: 5551234567', 'Date: 03/02/2026', `Subject: ${name}`, 'Pages: 2']);
      expect(body).toEqual([name, 'Patient:', name]);
      expect([...cover!, ...body!].join('\n')).not.toContain('?');
    }
  });
});
