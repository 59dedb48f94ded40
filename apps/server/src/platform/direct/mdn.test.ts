import fc from 'fast-check';
import { simpleParser } from 'mailparser';
import { describe, expect, it } from 'vitest';
import { fixture, itWithFixtures } from '../../test/shared-fixtures.ts';
import { buildMdn, isDsn, isMdn, isReport, parseDsn, parseMdn, type Disposition } from './mdn.ts';

// Lakeside's HISP tells Riverview what became of its referral: processed, then dispatched into Intake,
// or failed with the reason. Riverview reads those notices back, and the Direct Project's sample MDN too.

const original = { messageId: '<referral-1@direct.riverview.example.org>', subject: 'Referral for Maria Alvarez' };
const DISPOSITIONS: Disposition[] = ['processed', 'dispatched', 'failed', 'displayed', 'deleted'];
const lakeside = 'intake@direct.lakeside.example.org';
const riverview = 'ann.carter@direct.riverview.example.org';

const notify = (disposition: Disposition, extra: { failureText?: string; originalSubject?: string; finalRecipient?: string } = {}) =>
  buildMdn({
    from: lakeside,
    to: riverview,
    originalMessageId: original.messageId,
    originalSubject: extra.originalSubject ?? original.subject,
    finalRecipient: extra.finalRecipient ?? lakeside,
    disposition,
    reportingUa: 'direct.lakeside.example.org; ClinicRelay',
    ...(extra.failureText ? { failureText: extra.failureText } : {}),
    messageId: '<mdn-1@direct.lakeside.example.org>',
    date: new Date('2024-05-06T07:08:09Z'),
  });

describe('an MDN built here', () => {
  it('is a multipart/report message with CRLF line endings, a human part and the disposition-notification part', async () => {
    const mdn = notify('processed');
    const text = mdn.toString();
    expect(text).not.toMatch(/[^\r]\n/);
    expect(text).toMatch(/^From: intake@direct\.lakeside\.example\.org\r\nTo: ann\.carter@direct\.riverview\.example\.org\r\nSubject: Processed: Referral for Maria Alvarez\r\n/);
    expect(text).toContain('Content-Type: multipart/report; report-type=disposition-notification;');
    expect(text).toContain(
      [
        'Content-Type: message/disposition-notification',
        'Content-Transfer-Encoding: 7bit',
        '',
        'Reporting-UA: direct.lakeside.example.org; ClinicRelay',
        `Original-Recipient: rfc822;${lakeside}`,
        `Final-Recipient: rfc822;${lakeside}`,
        `Original-Message-ID: ${original.messageId}`,
        'Disposition: automatic-action/MDN-sent-automatically;processed',
        '',
      ].join('\r\n'),
    );
    // Any mail reader sees the human part as the message's text.
    const parsed = await simpleParser(mdn);
    expect(parsed.text).toContain('Your message was received and processed');
    expect([parsed.messageId, parsed.date]).toEqual(['<mdn-1@direct.lakeside.example.org>', new Date('2024-05-06T07:08:09Z')]);
  });

  it.each([
    ['processed', null, false],
    ['dispatched', null, true],
    ['failed', 'The recipient address is no longer in service.', false],
  ] as const)('round-trips %s', (disposition, failureText, isFinalDestination) => {
    const mdn = notify(disposition, failureText ? { failureText } : {});
    expect(isMdn(mdn)).toBe(true);
    expect(parseMdn(mdn)).toEqual({ originalMessageId: original.messageId, disposition, finalRecipient: lakeside, originalRecipient: lakeside, failure: failureText, isFinalDestination });
  });

  it('marks dispatched with the X-DIRECT-FINAL-DESTINATION-DELIVERY field, and failed with a Failure field', () => {
    expect(notify('dispatched').toString()).toContain('Disposition: automatic-action/MDN-sent-automatically;dispatched\r\nX-DIRECT-FINAL-DESTINATION-DELIVERY:\r\n');
    expect(notify('failed', { failureText: 'Quarantined' }).toString()).toContain('\r\nFailure: Quarantined\r\n');
    expect(notify('processed').toString()).not.toContain('X-DIRECT-FINAL-DESTINATION-DELIVERY');
  });

  it('cannot be made to carry extra header fields through the values it is given', () => {
    const mdn = notify('failed', {
      originalSubject: 'Hi\r\nBcc: stranger@example.com',
      finalRecipient: `${lakeside}\r\nDisposition: automatic-action/MDN-sent-automatically;dispatched`,
      failureText: 'x\r\nX-DIRECT-FINAL-DESTINATION-DELIVERY: yes',
    });
    expect(mdn.toString()).not.toMatch(/\r\n(Bcc|Disposition: automatic-action\/MDN-sent-automatically;dispatched|X-DIRECT-FINAL-DESTINATION-DELIVERY)/);
    expect(parseMdn(mdn)).toMatchObject({ disposition: 'failed', isFinalDestination: false });
  });

  it('encodes a subject that is not ASCII', async () => {
    const parsed = await simpleParser(notify('processed', { originalSubject: 'Référence Nguyễn' }));
    expect(parsed.subject).toBe('Processed: Référence Nguyễn');
  });

  it('is still read when wrapped as message/rfc822, as Direct signs it', () => {
    const wrapped = Buffer.concat([Buffer.from('Content-Type: message/rfc822\r\n\r\n'), notify('dispatched')]);
    expect(isMdn(wrapped)).toBe(true);
    expect(parseMdn(wrapped)).toMatchObject({ disposition: 'dispatched', isFinalDestination: true });
  });
});

describe('reading MDNs from other systems', () => {
  itWithFixtures('reads the Direct Project reference MDN', () => {
    const mdn = fixture('direct/MDNMessage.txt');
    expect(isMdn(mdn)).toBe(true);
    expect(parseMdn(mdn)).toEqual({
      originalMessageId: '<9501051053.aa04167@IETF.CNR I.Reston.VA.US>',
      disposition: 'processed',
      finalRecipient: 'externUser1@starugh-stateline.com',
      originalRecipient: null,
      failure: null,
      isFinalDestination: false,
    });
  });

  itWithFixtures('a regular message is not an MDN', () => {
    const message = fixture('direct/MessageWithAttachment.txt');
    expect(isMdn(message)).toBe(false);
    expect(parseMdn(message)).toBeNull();
  });

  const report = (fields: string) =>
    Buffer.from(
      [
        'Content-Type: multipart/report; report-type="disposition-notification"; boundary=b',
        '',
        '--b',
        'Content-Type: text/plain',
        '',
        'Notice',
        '--b',
        'Content-Type: message/disposition-notification',
        '',
        fields,
        '--b--',
        '',
      ].join('\n'),
    );

  it('treats the RFC 3798 "error" modifier as failed and reads its Error field', () => {
    const mdn = report('Original-Message-ID: x@y\nDisposition: automatic-action/MDN-sent-automatically; processed/error\nError: Could not decrypt');
    expect(parseMdn(mdn)).toEqual({ originalMessageId: '<x@y>', disposition: 'failed', finalRecipient: null, originalRecipient: null, failure: 'Could not decrypt', isFinalDestination: false });
  });

  it('gives null for a report that names no original message or no known disposition', () => {
    expect(parseMdn(report('Disposition: automatic-action/MDN-sent-automatically;processed'))).toBeNull();
    expect(parseMdn(report('Original-Message-ID: <x@y>\nDisposition: manual-action/MDN-sent-manually;denied'))).toBeNull();
    expect(isMdn(Buffer.from('\u0000\u0001 not mail'))).toBe(false);
    expect(parseMdn(Buffer.alloc(0))).toBeNull();
  });
});

// RFC 3464 DSNs in the two forms a Direct sender meets: the Direct Project security agent's (X-Original-Message-ID in
// the per-message fields, the original's headers as text/rfc822-headers) and a plain MTA bounce (Postfix's layout: the
// original returned as message/rfc822, no X-Original-Message-ID).
describe('reading DSNs', () => {
  const dsn = (statusFields: string, returned: string) =>
    Buffer.from(
      [
        'From: postmaster@direct.lakeside.example.org',
        'To: ann.carter@direct.riverview.example.org',
        'Subject: Delivery Status Notification (Failure)',
        'MIME-Version: 1.0',
        'Content-Type: multipart/report; report-type=delivery-status;',
        '\tboundary="dsn-boundary"',
        '',
        '--dsn-boundary',
        'Content-Type: text/plain',
        '',
        'Your message could not be delivered.',
        '--dsn-boundary',
        'Content-Type: message/delivery-status',
        '',
        statusFields,
        '--dsn-boundary',
        returned,
        '--dsn-boundary--',
        '',
      ].join('\r\n'),
    );

  it('reads the Direct security agent form: X-Original-Message-ID, and per recipient the action, status and diagnostic', () => {
    const report = dsn(
      [
        'Reporting-MTA: dns;direct.lakeside.example.org',
        'X-Original-Message-ID: <referral-1@direct.riverview.example.org>',
        '',
        'Final-Recipient: rfc822;intake@direct.lakeside.example.org',
        'Action: failed',
        'Status: 5.0.0',
        'Diagnostic-Code: smtp; 550 5.1.1 The recipient address is no longer in service',
        '',
        'Final-Recipient: rfc822; records@direct.lakeside.example.org',
        'Action: delayed',
        'Status: 4.4.1',
      ].join('\r\n'),
      'Content-Type: text/rfc822-headers\r\n\r\nMessage-ID: <something-else@example.org>\r\nSubject: Referral\r\n',
    );
    expect([isDsn(report), isMdn(report), isReport(report)]).toEqual([true, false, true]);
    expect(parseMdn(report)).toBeNull();
    expect(parseDsn(report)).toEqual({
      originalMessageId: original.messageId,
      recipients: [
        { finalRecipient: lakeside, originalRecipient: null, action: 'failed', status: '5.0.0', diagnostic: '550 5.1.1 The recipient address is no longer in service' },
        { finalRecipient: 'records@direct.lakeside.example.org', originalRecipient: null, action: 'delayed', status: '4.4.1', diagnostic: null },
      ],
    });
  });

  it('takes the Message-ID of the returned message when an MTA bounce has no X-Original-Message-ID', () => {
    const report = dsn(
      'Reporting-MTA: dns; mx.lakeside.example.org\r\nArrival-Date: Mon, 6 May 2024 07:08:09 +0000\r\n\r\nFinal-Recipient: rfc822; intake@direct.lakeside.example.org\r\nOriginal-Recipient: rfc822;intake@direct.lakeside.example.org\r\nAction: failed\r\nStatus: 5.1.1',
      `Content-Type: message/rfc822\r\n\r\nFrom: ${riverview}\r\nMessage-ID: ${original.messageId}\r\nSubject: Referral\r\n\r\nbody\r\n`,
    );
    expect(parseDsn(report)).toEqual({
      originalMessageId: original.messageId,
      recipients: [{ finalRecipient: lakeside, originalRecipient: lakeside, action: 'failed', status: '5.1.1', diagnostic: null }],
    });
  });

  it('gives null for a DSN that names no message, and never throws on noise', () => {
    expect(parseDsn(dsn('Reporting-MTA: dns;x\r\n\r\nFinal-Recipient: rfc822;a@b\r\nAction: failed\r\nStatus: 5.0.0', 'Content-Type: text/plain\r\n\r\nx'))).toBeNull();
    expect(parseDsn(notify('failed'))).toBeNull();
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 400 }), (noise) => {
        expect(isDsn(noise)).toBe(false);
        expect(parseDsn(noise)).toBeNull();
      }),
      { numRuns: 200 },
    );
  });
});

describe('damaged input', () => {
  it('never throws on bytes that are not an MDN, and an MDN with bytes changed is read or gives null', () => {
    const mdn = notify('failed', { failureText: 'Quarantined' });
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 400 }), fc.array(fc.tuple(fc.nat(mdn.length - 1), fc.integer({ min: 0, max: 255 })), { maxLength: 6 }), (noise, changes) => {
        expect(isMdn(noise)).toBe(false);
        expect(parseMdn(noise)).toBeNull();
        const damaged = Buffer.from(mdn);
        for (const [at, value] of changes) damaged[at] = value;
        const read = parseMdn(damaged);
        if (read) expect(DISPOSITIONS).toContain(read.disposition);
      }),
      { numRuns: 300 },
    );
  });
});
