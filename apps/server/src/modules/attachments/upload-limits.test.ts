import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { attachmentMessages, MAX_ATTACHMENT_BYTES } from '@clinicrelay/contracts/attachments.ts';
import { useTestApp } from '../../test/app.ts';

const LAKESIDE_USER = 'user@lakeside.example.org';
const BOUNDARY = '----clinicrelay-upload-limits';
const GiB = 1024 ** 3;

const partHead = (fileName: string) =>
  Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: text/plain\r\n\r\n`);
const formTail = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
const multipart = (fileName: string, bytes: Buffer) => Buffer.concat([partHead(fileName), bytes, formTail]);

// issue 8 §3: an upload over 20 MiB is refused with 413 as soon as that is known, and no more of it is read.
describe('upload limits', () => {
  const t = useTestApp();
  const headers = async () => ({
    authorization: `Bearer ${(await t.login(LAKESIDE_USER)).accessToken}`,
    'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
  });
  const newDraft = async () => (await t.call(LAKESIDE_USER, 'PUT', '/api/messages', { subject: 'Upload limits' })).json().id as string;

  it('refuses a file of 20 MiB + 1 byte with 413 and the spec text; 20 MiB exactly passes the size check', async () => {
    const id = await newDraft();
    const over = await t.app.inject({ method: 'POST', url: `/api/messages/${id}/attachments`, headers: await headers(), payload: multipart('big.txt', Buffer.alloc(MAX_ATTACHMENT_BYTES + 1, 'a')) });
    expect(over.statusCode).toBe(413);
    expect(over.json()).toEqual({ message: attachmentMessages.tooLarge });
    expect(over.headers.connection).toBe('close');

    const atLimit = await t.app.inject({ method: 'POST', url: `/api/messages/${id}/attachments`, headers: await headers(), payload: multipart('limit.txt', Buffer.alloc(MAX_ATTACHMENT_BYTES, 'a')) });
    expect(atLimit.statusCode, atLimit.body).toBe(200);
    expect(atLimit.json()).toMatchObject({ fileName: 'limit.txt', sizeInBytes: MAX_ATTACHMENT_BYTES });
  });

  it('answers 413 to a declared Content-Length of 1 GiB before reading the body', async () => {
    const id = await newDraft();
    let served = 0;
    // Reading past the first few KB of this body is the defect: it errors instead of serving more.
    const body = new Readable({
      read() {
        if (served >= 8 * 1024) return this.destroy(new Error('the server read past the first 8 KB'));
        const chunk = served === 0 ? partHead('huge.txt') : Buffer.alloc(1024, 'a');
        served += chunk.length;
        this.push(chunk);
      },
    });
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/messages/${id}/attachments`,
      headers: { ...(await headers()), 'content-length': String(GiB) },
      payload: body,
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ message: attachmentMessages.tooLarge });
    expect(served).toBeLessThan(8 * 1024);
  });

  it('stops reading a streamed upload (no Content-Length) once its file passes 20 MiB and closes the connection', async () => {
    const id = await newDraft();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const result = await new Promise<{ status: number; body: string; sent: number; closed: boolean }>((resolve, reject) => {
      let sent = 0;
      let answered: { status: number; body: string } | undefined;
      const req = http.request({ host: '127.0.0.1', port, method: 'POST', path: `/api/messages/${id}/attachments`, headers: { 'transfer-encoding': 'chunked' } });
      void headers().then((h) => {
        for (const [k, v] of Object.entries(h)) req.setHeader(k, v);
        const chunk = Buffer.alloc(256 * 1024, 'a');
        // A client that would go on for 1 GiB: it writes until the server answers or hangs up.
        const pump = () => {
          while (!answered && !req.destroyed && sent < GiB) {
            const more = req.write(sent === 0 ? partHead('endless.txt') : chunk);
            sent += sent === 0 ? 1 : chunk.length;
            if (!more) return void req.once('drain', pump);
          }
        };
        pump();
      });
      req.on('response', (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (body += d));
        res.on('end', () => (answered = { status: res.statusCode!, body }));
      });
      req.on('error', () => undefined);
      req.on('close', () => (answered ? resolve({ ...answered, sent, closed: true }) : reject(new Error(`closed without an answer after ${sent} bytes`))));
    });
    expect(result.status).toBe(413);
    expect(JSON.parse(result.body)).toEqual({ message: attachmentMessages.tooLarge });
    expect(result.closed).toBe(true);
    // What was written before the answer: the 20 MiB that were counted plus socket buffers, far from 1 GiB.
    expect(result.sent).toBeLessThan(64 * 1024 * 1024);
  }, 60_000);

  it('refuses a file name longer than 255 characters, as a rename does', async () => {
    const id = await newDraft();
    const name = `${'n'.repeat(252)}.txt`;
    const res = await t.app.inject({ method: 'POST', url: `/api/messages/${id}/attachments`, headers: await headers(), payload: multipart(name, Buffer.from('hello')) });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: 'The request is invalid.', modelState: { file: [attachmentMessages.fileNameTooLong] } });
    const ok = await t.app.inject({ method: 'POST', url: `/api/messages/${id}/attachments`, headers: await headers(), payload: multipart(name.slice(1), Buffer.from('hello')) });
    expect(ok.statusCode, ok.body).toBe(200);
  });
});
