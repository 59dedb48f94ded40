import { describe, expect, it } from 'vitest';
import { captureBody, redactHeaders, redactUrl, redactValue, REDACTED } from './redact.ts';

describe('what a captured call keeps (redaction)', () => {
  it('blanks passwords, tokens, secrets and one-time codes at any depth, and JWTs wherever they appear', () => {
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4eXoxMjMifQ.c2lnbmF0dXJlLXZhbHVl';
    expect(
      redactValue({ userName: 'a', password: 'p', nested: [{ newPassword: 'n', client_secret: 's', verificationCode: '123456', zipCode: '97201' }], note: `see ${jwt}`, code: '654321' }),
    ).toEqual({ userName: 'a', password: REDACTED, nested: [{ newPassword: REDACTED, client_secret: REDACTED, verificationCode: REDACTED, zipCode: '97201' }], note: `see ${REDACTED}`, code: REDACTED });
  });

  it('blanks credential headers and secret query parameters', () => {
    expect(redactHeaders({ Authorization: 'Bearer x', cookie: 'a=b', 'set-cookie': ['c=d'], 'content-type': 'application/json' })).toEqual({
      authorization: REDACTED,
      cookie: REDACTED,
      'set-cookie': REDACTED,
      'content-type': 'application/json',
    });
    expect(redactUrl('/api/x?search=lake&resetToken=abc&code=1')).toBe(`/api/x?search=lake&resetToken=${REDACTED}&code=${REDACTED}`);
  });

  it('never keeps file contents, and cuts text at 64 kB saying so', () => {
    expect(captureBody({ contentType: 'multipart/form-data; boundary=x', bytes: 5000 })).toEqual({ body: '[multipart/form-data: file contents not captured]', bodyBytes: 5000, bodyTruncated: false });
    expect(captureBody({ contentType: 'application/pdf', raw: Buffer.alloc(10) })).toEqual({ body: '[application/pdf: 10 bytes not captured]', bodyBytes: 10, bodyTruncated: false });
    const big = captureBody({ contentType: 'text/plain', raw: 'é'.repeat(50_000) });
    expect(big.bodyTruncated).toBe(true);
    expect(Buffer.byteLength(big.body!)).toBeLessThanOrEqual(64 * 1024);
    expect(big.bodyBytes).toBe(100_000);
    // A cut JSON body is not parseable: its secret fields are blanked by pattern.
    const cutJson = captureBody({ contentType: 'application/json', raw: `{"password":"hunter22","pad":"${'x'.repeat(200_000)}"}` });
    expect(cutJson.body).toContain(`"password":"${REDACTED}"`);
    expect(captureBody({ contentType: 'application/x-www-form-urlencoded', raw: 'user=a&password=b' }).body).toBe(`user=a&password=${REDACTED}`);
  });
});
