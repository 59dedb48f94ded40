import { beforeAll, describe, expect, it } from 'vitest';
import { messages as errorTexts } from '@clinicrelay/contracts/errors.ts';
import { textMessages } from '@clinicrelay/contracts/text.ts';
import { useTestApp } from '../../test/app.ts';

const LAKESIDE_ADMIN = 'admin@lakeside.example.org';
const NUL = '\u0000';
const LONE_SURROGATE = '\uD800';
const BOUNDARY = '----clinicrelay-unstorable';

// The field a route must name in modelState when one of its strings carries a NUL (issue 8 §3).
interface Probe {
  route: string;
  method: string;
  url: (ids: Ids) => string;
  payload?: (ids: Ids) => unknown;
  field: string;
  anonymous?: boolean;
  // A string holding JSON names its own problem.
  text?: string;
}
interface Ids {
  draft: string;
  attachment: string;
}

const q = encodeURIComponent(NUL);
const probes: Probe[] = [
  { route: 'POST /api/account/login', method: 'POST', url: () => '/api/account/login', payload: () => ({ userName: `admin${NUL}@lakeside.example.org`, password: 'x' }), field: 'userName', anonymous: true },
  { route: 'POST /api/account/login (password)', method: 'POST', url: () => '/api/account/login', payload: () => ({ userName: LAKESIDE_ADMIN, password: `pass${NUL}` }), field: 'password', anonymous: true },
  { route: 'POST /api/account/refresh', method: 'POST', url: () => '/api/account/refresh', payload: () => ({ refreshToken: NUL }), field: 'refreshToken', anonymous: true },
  { route: 'GET /api/messages (Release list)', method: 'GET', url: () => `/api/messages?search=${q}`, field: 'search' },
  { route: 'GET /api/messages (Release list, dates)', method: 'GET', url: () => `/api/messages?startDate=${q}`, field: 'startDate' },
  { route: 'POST /api/messages (Intake list)', method: 'POST', url: () => '/api/messages', payload: () => ({ filter: NUL }), field: 'filter' },
  { route: 'POST /api/intake (Intake list)', method: 'POST', url: () => '/api/intake', payload: () => ({ columnFilters: { subject: { value: NUL, operator: 'contains' } } }), field: 'columnFilters.subject.value' },
  { route: 'POST /api/messages (Intake list, rules)', method: 'POST', url: () => '/api/messages', payload: () => ({ rules: JSON.stringify([{ toAddress: `a${NUL}` }]) }), field: 'rules', text: 'Rules are invalid.' },
  { route: 'GET /api/users (user search)', method: 'GET', url: () => `/api/users?search=${q}`, field: 'search' },
  { route: 'GET /api/messages/eventsreport', method: 'GET', url: () => `/api/messages/eventsreport?eventTypes=${q}`, field: 'eventTypes' },
  { route: 'GET /api/messages/events', method: 'GET', url: () => `/api/messages/events?eventTypes=${q}`, field: 'eventTypes' },
  { route: 'PUT /api/messages (new draft)', method: 'PUT', url: () => '/api/messages', payload: () => ({ subject: `a${NUL}b` }), field: 'subject' },
  { route: 'PUT /api/messages/{id} (draft)', method: 'PUT', url: (ids) => `/api/messages/${ids.draft}`, payload: () => ({ patient: { firstName: NUL } }), field: 'patient.firstName' },
  { route: 'PUT /api/messages/{id}/patient', method: 'PUT', url: (ids) => `/api/messages/${ids.draft}/patient`, payload: () => ({ lastName: NUL }), field: 'lastName' },
  { route: 'PUT /api/addresscache', method: 'PUT', url: () => '/api/addresscache', payload: () => ({ addresses: [`a${NUL}@b.org`] }), field: 'addresses.0' },
  { route: 'PUT /api/messages/{id}/attachments', method: 'PUT', url: (ids) => `/api/messages/${ids.draft}/attachments`, payload: (ids) => [{ id: ids.attachment, fileName: `a${NUL}.txt` }], field: '0.fileName' },
  {
    route: 'PUT /api/messages/{id}/attachments (meta JSON)',
    method: 'PUT',
    url: (ids) => `/api/messages/${ids.draft}/attachments`,
    payload: (ids) => [{ id: ids.attachment, attachmentMeta: { patient: { nested: [{ name: NUL }] } } }],
    field: '0.attachmentMeta.patient.nested',
  },
  { route: 'PUT /api/messages/{id}/process', method: 'PUT', url: (ids) => `/api/messages/${ids.draft}/process`, payload: () => ({ isProcessed: true, subject: NUL }), field: 'subject' },
  { route: 'POST /api/intakerules', method: 'POST', url: () => '/api/intakerules', payload: () => ({ name: `rule${NUL}`, toAddresses: ['intake@lakeside.direct.example.org'] }), field: 'name' },
  { route: 'POST /api/conversations/{id}/respond', method: 'POST', url: (ids) => `/api/conversations/${ids.draft}/respond`, payload: (ids) => ({ responseToMessageId: ids.draft, responseType: 'Accepted', responseAction: NUL }), field: 'responseAction' },
];

const uploadBody = (fileName: string, meta?: string) =>
  Buffer.from(
    [
      ...(meta === undefined ? [] : [`--${BOUNDARY}\r\nContent-Disposition: form-data; name="attachmentMeta"\r\n\r\n${meta}\r\n`]),
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: text/plain\r\n\r\nhello\r\n--${BOUNDARY}--\r\n`,
    ].join(''),
  );

// issue 8 §3: strings PostgreSQL cannot store are refused at the edge with a 400 naming the field, never a 500.
describe('NUL characters and lone surrogates', () => {
  const t = useTestApp();
  const ids = {} as Ids;
  let token: string;

  beforeAll(async () => {
    token = (await t.login(LAKESIDE_ADMIN)).accessToken;
    ids.draft = (await t.call(token, 'PUT', '/api/messages', { subject: 'Probe' })).json().id;
    const upload = await t.app.inject({
      method: 'POST',
      url: `/api/messages/${ids.draft}/attachments`,
      headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
      payload: uploadBody('note.txt'),
    });
    expect(upload.statusCode, upload.body).toBe(200);
    ids.attachment = upload.json().id;
  });

  it.each(probes)('$route: 400 naming $field', async (probe) => {
    const payload = probe.payload?.(ids);
    const res = await t.call(probe.anonymous ? null : token, probe.method, probe.url(ids), payload);
    expect(res.statusCode, res.body).toBe(400);
    // A single problem is the message itself; several keep the general heading.
    const problems = Object.values(res.json().modelState as Record<string, string[]>).flat();
    expect(res.json().message).toBe(problems.length === 1 ? problems[0] : errorTexts.invalidRequest);
    expect(res.json().modelState[probe.field], res.body).toContain(probe.text ?? textMessages.unstorableCharacters);
  });

  it('refuses a lone UTF-16 surrogate in a draft body, and keeps a real emoji', async () => {
    const res = await t.call(token, 'PUT', `/api/messages/${ids.draft}`, { body: `Palpitations ${LONE_SURROGATE}` });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().modelState).toEqual({ body: [textMessages.unstorableCharacters] });
    const lowHalf = await t.call(token, 'PUT', '/api/messages', { subject: '\uDE00 alone' });
    expect(lowHalf.json().modelState).toEqual({ subject: [textMessages.unstorableCharacters] });

    const kept = await t.call(token, 'PUT', `/api/messages/${ids.draft}`, { body: 'Palpitations 😀' });
    expect(kept.statusCode, kept.body).toBe(200);
    expect(kept.json().body).toBe('Palpitations 😀');
  });

  it('refuses a NUL in an upload’s file name and in its attachmentMeta', async () => {
    const upload = (fileName: string, meta?: string) =>
      t.app.inject({
        method: 'POST',
        url: `/api/messages/${ids.draft}/attachments`,
        headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
        payload: uploadBody(fileName, meta),
      });
    const name = await upload(`note${NUL}.txt`);
    expect(name.statusCode, name.body).toBe(400);
    expect(name.json().modelState).toEqual({ file: [textMessages.unstorableCharacters] });
    const meta = await upload('note.txt', JSON.stringify({ documentType: `Referral${NUL}` }));
    expect(meta.statusCode, meta.body).toBe(400);
    expect(meta.json().modelState).toEqual({ 'attachmentMeta.documentType': [textMessages.unstorableCharacters] });
  });
});
