import { unzipSync, zipSync } from 'fflate';
import MailComposer from 'nodemailer/lib/mail-composer';
import type Mail from 'nodemailer/lib/mailer';
import { describe, expect, it } from 'vitest';
import { fixture, itWithFixtures } from '../../test/shared-fixtures.ts';
import { parseDirectContent } from './content.ts';
import { buildXdmPackage } from './xdm.ts';

// Riverview's HISP verified a message for Lakeside; this reads what is inside it: who sent it to whom,
// the text, the documents (XDM packages unpacked, with their patient), and what the sender asked for.

const pdf = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
const direct = { from: 'ann.carter@direct.riverview.example.org', to: 'intake@direct.lakeside.example.org' };

const compose = (mail: Mail.Options) => new MailComposer({ ...direct, date: new Date('2024-05-06T07:08:09Z'), messageId: '<m1@riverview.example.org>', ...mail }).compile().build();

describe('a Direct message with a text body and a PDF', () => {
  it('gives the headers, the body and the attachment', async () => {
    const content = await parseDirectContent(
      await compose({ subject: 'Referral for Maria Alvarez', text: 'Please see the attached referral.\n', attachments: [{ filename: 'referral.pdf', content: pdf, contentType: 'application/pdf' }] }),
    );
    expect(content).toEqual({
      subject: 'Referral for Maria Alvarez',
      from: direct.from,
      to: [direct.to],
      messageId: '<m1@riverview.example.org>',
      date: new Date('2024-05-06T07:08:09Z'),
      body: 'Please see the attached referral.',
      attachments: [{ fileName: 'referral.pdf', mimeType: 'application/pdf', bytes: pdf, meta: null }],
      patient: null,
      isUrgent: false,
      dispositionNotificationTo: null,
      finalDeliveryRequested: false,
    });
  });

  it('names an attachment that has no name from its type', async () => {
    const content = await parseDirectContent(await compose({ subject: 'Scan', text: 'x', attachments: [{ content: pdf, contentType: 'application/pdf', contentDisposition: 'attachment' }] }));
    expect(content.attachments.map((a) => [a.fileName, a.mimeType])).toEqual([['attachment-1.pdf', 'application/pdf']]);
  });

  it('takes the text of an HTML-only message', async () => {
    const content = await parseDirectContent(await compose({ subject: 'Note', html: '<p>Patient seen <b>today</b>.</p>' }));
    expect(content.body).toBe('Patient seen today.');
  });

  it('keeps at most 1 MB of body text', async () => {
    const content = await parseDirectContent(await compose({ subject: 'Long', text: 'é'.repeat(700_000) }));
    expect(Buffer.byteLength(content.body)).toBe(1024 * 1024);
  });
});

describe('what the sender asked for', () => {
  it('Importance: high, or X-Priority: 1, makes the message urgent', async () => {
    expect((await parseDirectContent(await compose({ subject: 'Stat', text: 'x', headers: { Importance: 'high' } }))).isUrgent).toBe(true);
    expect((await parseDirectContent(await compose({ subject: 'Stat', text: 'x', headers: { 'X-Priority': '1 (Highest)' } }))).isUrgent).toBe(true);
    expect((await parseDirectContent(await compose({ subject: 'Routine', text: 'x', headers: { Importance: 'normal' } }))).isUrgent).toBe(false);
  });

  it('reads Disposition-Notification-To and the final-destination delivery option', async () => {
    const asked = await parseDirectContent(
      await compose({
        subject: 'Referral',
        text: 'x',
        headers: { 'Disposition-Notification-To': `Ann Carter <${direct.from}>`, 'Disposition-Notification-Options': 'X-DIRECT-FINAL-DESTINATION-DELIVERY=optional,true' },
      }),
    );
    expect([asked.dispositionNotificationTo, asked.finalDeliveryRequested]).toEqual([direct.from, true]);
    const declined = await parseDirectContent(await compose({ subject: 'x', text: 'x', headers: { 'Disposition-Notification-Options': 'X-DIRECT-FINAL-DESTINATION-DELIVERY=optional,false' } }));
    expect(declined.finalDeliveryRequested).toBe(false);
  });
});

describe('an XDM package attached', () => {
  it('becomes its documents and patient; the zip itself is not kept', async () => {
    const zip = buildXdmPackage({
      documents: [
        { fileName: 'referral.pdf', mimeType: 'application/pdf', bytes: pdf, documentType: 'Referral note', documentDate: new Date('2024-05-01T00:00:00Z') },
        { fileName: 'ccd.xml', mimeType: 'text/xml', bytes: Buffer.from('<ClinicalDocument/>') },
      ],
      patient: { firstName: 'Maria', lastName: 'Alvarez', birthDate: '1958-04-12', gender: 'F' },
    });
    const content = await parseDirectContent(
      await compose({
        subject: 'Referral package',
        text: 'See the package.',
        attachments: [
          { filename: 'consent.pdf', content: pdf, contentType: 'application/pdf' },
          { filename: 'package.zip', content: zip, contentType: 'application/zip' },
        ],
      }),
    );
    expect(content.attachments.map((a) => [a.fileName, a.mimeType, a.meta?.documentType ?? null, a.meta?.documentDate ?? null])).toEqual([
      ['consent.pdf', 'application/pdf', null, null],
      ['referral.pdf', 'application/pdf', 'Referral note', '2024-05-01'],
      // Untyped, it travels as LOINC 34109-9 "Note".
      ['ccd.xml', 'text/xml', 'Note', null],
    ]);
    expect(content.patient).toEqual({ firstName: 'Maria', lastName: 'Alvarez', birthDate: '1958-04-12', gender: 'F' });
  });

  it('imports only the documents METADATA.XML lists; a package that lists nothing stays the zip it came as', async () => {
    const built = unzipSync(
      buildXdmPackage({ documents: [{ fileName: 'referral.pdf', mimeType: 'application/pdf', bytes: pdf }], patient: { firstName: 'Maria', lastName: 'Alvarez' } }),
    );
    const withStrays = zipSync({ ...built, 'IHE_XDM/SUBSET01/.DS_Store': new Uint8Array([0, 0, 0, 1]), 'IHE_XDM/SUBSET01/other.pdf': pdf });
    const unlisted = zipSync({ 'IHE_XDM/SUBSET01/DOC0001.PDF': pdf, 'IHE_XDM/SUBSET01/.DS_Store': new Uint8Array([0, 0, 0, 1]) });
    const content = await parseDirectContent(
      await compose({
        subject: 'x',
        text: 'x',
        attachments: [
          { filename: 'package.zip', content: Buffer.from(withStrays), contentType: 'application/zip' },
          { filename: 'no-metadata.zip', content: Buffer.from(unlisted), contentType: 'application/zip' },
        ],
      }),
    );
    expect(content.attachments.map((a) => [a.fileName, a.mimeType])).toEqual([
      ['referral.pdf', 'application/pdf'],
      ['no-metadata.zip', 'application/zip'],
    ]);
  });

  it('refuses the message when the package is a zip bomb', async () => {
    const bomb = zipSync({ 'IHE_XDM/SUBSET01/DOC0001.PDF': new Uint8Array(30 * 1024 * 1024) }, { level: 9 });
    await expect(parseDirectContent(await compose({ subject: 'x', text: 'x', attachments: [{ filename: 'x.zip', content: Buffer.from(bomb) }] }))).rejects.toThrowError(
      /zip bomb/,
    );
  });
});

describe('the whole message wrapped as message/rfc822 (Direct)', () => {
  it('reads the inner message, not the wrapper', async () => {
    const inner = await compose({ subject: 'Inner subject', text: 'Inner body', headers: { Importance: 'high' } });
    const wrapped = Buffer.concat([Buffer.from('Content-Type: message/rfc822\r\nSubject: not this one\r\n\r\n'), inner]);
    const content = await parseDirectContent(wrapped);
    expect([content.subject, content.from, content.body, content.isUrgent]).toEqual(['Inner subject', direct.from, 'Inner body', true]);
  });
});

describe('input that is not a good message', () => {
  it('reads a bare MIME entity without message headers', async () => {
    const content = await parseDirectContent(Buffer.from('Content-Type: text/plain; charset=utf-8\r\n\r\nHello\r\n'));
    expect([content.subject, content.from, content.to, content.messageId, content.date, content.body]).toEqual(['', null, [], null, null, 'Hello']);
  });

  it('refuses a message of too many parts with a plain reason', async () => {
    const parts = Array.from({ length: 1100 }, () => '--b\r\nContent-Type: text/plain\r\n\r\nx\r\n').join('');
    const message = Buffer.from(`Content-Type: multipart/mixed; boundary="b"\r\n\r\n${parts}--b--\r\n`);
    await expect(parseDirectContent(message)).rejects.toThrowError(/^The message's content could not be read/);
  });

  it('refuses a chain of message/rfc822 wrappers', async () => {
    const chain = Buffer.from(`${'Content-Type: message/rfc822\r\n\r\n'.repeat(10)}Subject: x\r\n\r\nbody`);
    await expect(parseDirectContent(chain)).rejects.toThrowError('The message is wrapped in more than 4 message/rfc822 layers.');
  });
});

describe('the Direct Project reference messages', () => {
  itWithFixtures('MessageWithAttachment.txt: a text body and a PNG', async () => {
    const content = await parseDirectContent(fixture('direct/MessageWithAttachment.txt'));
    expect(content).toMatchObject({
      subject: 'test pic',
      from: 'gm2552@securehealthemail.com',
      to: ['ryan@securehealthemail.com'],
      messageId: '<4C07A6B7.6020205@securehealthemail.com>',
      date: new Date('2010-06-03T12:57:27Z'),
      body: 'test pic',
    });
    expect(content.attachments.map((a) => [a.fileName, a.mimeType, a.bytes.subarray(1, 4).toString()])).toEqual([['iMac-icon.png', 'image/png', 'PNG']]);
  });

  itWithFixtures('MultipartMimeMessage.txt: a multipart message of text parts', async () => {
    const content = await parseDirectContent(fixture('direct/MultipartMimeMessage.txt'));
    expect(content).toMatchObject({
      subject: 'I-D ACTION:draft-ietf-mailext-pipeline-01.txt',
      from: 'User1@Cerner.com',
      to: ['externUser1@starugh-stateline.com'],
      date: new Date('1995-01-05T15:53:24Z'),
      attachments: [],
    });
    expect(content.body).toContain('A Revised Internet-Draft is available from the on-line Internet-Drafts directories.');
  });
});
