import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes, X509Certificate } from 'node:crypto';
import { eq } from 'drizzle-orm';
import * as pkijs from 'pkijs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trustAnchorMessages as text } from '@clinicrelay/contracts/trust-anchors.ts';
import type { Database } from '../../db/client.ts';
import { auditEvents } from '../../db/schema/audit.ts';
import { trustAnchors } from '../../db/schema/certificates.ts';
import { createCertificateAuthority, issueDirectCertificate, type CertificateAuthority } from '../../platform/direct/certificate-authority.ts';
import { useTestApp } from '../../test/app.ts';
import { openssl, opensslMissing } from '../../test/openssl.ts';
import { BundleUnavailable } from './bundle-download.ts';
import { findAnchors, refreshDueBundles, startBundleRefresh } from './service.ts';

const ADMIN = 'sysadmin@example.org';
const ANCHORS = '/api/configuration/anchors';
const BUNDLES = '/api/configuration/bundles';
const LAKESIDE = 'lakeside.direct.example.org';
const RIVERVIEW = 'riverview.direct.example.org';
const DAY = 86_400_000;
const MINUTE = 60_000;

const pem = (label: string, der: Uint8Array) => `-----BEGIN ${label}-----\n${Buffer.from(der).toString('base64').replace(/.{1,64}/g, '$&\n')}-----END ${label}-----\n`;

// A certs-only PKCS#7 (CMS SignedData with no signers), as a trust community publishes its bundle.
function pkcs7(...certificates: CertificateAuthority[]): Buffer {
  const signedData = new pkijs.SignedData({
    version: 1,
    encapContentInfo: new pkijs.EncapsulatedContentInfo({ eContentType: '1.2.840.113549.1.7.1' }),
    certificates: certificates.map((c) => pkijs.Certificate.fromBER(c.certificateDer)),
  });
  const info = new pkijs.ContentInfo({ contentType: pkijs.ContentInfo.SIGNED_DATA, content: signedData.toSchema(true) });
  return Buffer.from(info.toSchema().toBER());
}

// The bundle server of a trust community, on loopback: it serves whatever `served` holds, or fails as told.
function startBundleServer() {
  const state: { body: Uint8Array; status: number; requests: number } = { body: Buffer.alloc(0), status: 200, requests: 0 };
  const server: Server = createServer((_request, response) => {
    state.requests++;
    if (state.status !== 200) response.writeHead(state.status).end('unavailable');
    else response.writeHead(200, { 'content-type': 'application/pkcs7-mime' }).end(state.body);
  });
  return {
    state,
    server,
    listen: () => new Promise<string>((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`))),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('trust anchors and bundles (issue 12 §1)', () => {
  const t = useTestApp();
  const bundleServer = startBundleServer();
  let baseUrl = '';
  let demo: CertificateAuthority;
  let partner: CertificateAuthority;
  let community: CertificateAuthority;
  let newcomer: CertificateAuthority;
  let shortLived: CertificateAuthority;
  let leaf: Uint8Array;
  const startedAt = new Date();

  beforeAll(async () => {
    [demo, partner, community, newcomer, shortLived] = await Promise.all([
      createCertificateAuthority({ commonName: 'Lakeside Test CA', organization: 'Lakeside', validDays: 365 }),
      createCertificateAuthority({ commonName: 'Partner HISP CA', organization: 'Partner HISP', validDays: 365 }),
      createCertificateAuthority({ commonName: 'Community Root CA', organization: 'Community', validDays: 365 }),
      createCertificateAuthority({ commonName: 'Newcomer CA', organization: 'Community', validDays: 365 }),
      createCertificateAuthority({ commonName: 'Short Lived CA', organization: 'Lakeside', validDays: 30 }),
    ]);
    leaf = (await issueDirectCertificate(demo, { domain: LAKESIDE, usage: 'both', validDays: 30 })).certificateDer;
    baseUrl = await bundleServer.listen();
  });
  afterAll(async () => {
    t.clock.now = startedAt;
    if (bundleServer.server.listening) await bundleServer.close();
  });

  async function upload(user: string, url: string, fields: Record<string, string | undefined>, file?: { name: string; bytes: Uint8Array | string }) {
    const form = new FormData();
    for (const [key, value] of Object.entries(fields)) if (value !== undefined) form.append(key, value);
    if (file) form.append('file', new Blob([typeof file.bytes === 'string' ? file.bytes : Buffer.from(file.bytes)]), file.name);
    const request = new Response(form);
    const { accessToken } = await t.login(user);
    return t.app.inject({
      method: 'POST',
      url,
      headers: { authorization: `Bearer ${accessToken}`, 'content-type': request.headers.get('content-type')! },
      payload: Buffer.from(await request.arrayBuffer()),
    });
  }
  const addAnchor = (fields: Record<string, string | undefined>, file?: { name: string; bytes: Uint8Array | string }) => upload(ADMIN, ANCHORS, fields, file);
  const addBundle = (fields: Record<string, string | undefined>, file?: { name: string; bytes: Uint8Array | string }) => upload(ADMIN, BUNDLES, fields, file);
  const refusal = (message: string, field = 'file') => ({ message, modelState: { [field]: [message] } });
  const listAnchors = async (query = '') => (await t.call(ADMIN, 'GET', `${ANCHORS}?pageSize=100${query}`)).json();
  const anchorsOf = async (bundleId: string) => t.handle.db.select().from(trustAnchors).where(eq(trustAnchors.bundleId, bundleId));
  const auditTypes = async () => (await t.handle.db.select({ type: auditEvents.eventType }).from(auditEvents)).map((e) => e.type);

  it('is for system administrators only', async () => {
    const id = '00000000-0000-4000-8000-000000000000';
    for (const user of ['reporting@example.org', 'admin@lakeside.example.org', 'user@lakeside.example.org']) {
      expect((await t.call(user, 'GET', ANCHORS)).statusCode, user).toBe(403);
      expect((await upload(user, ANCHORS, { name: 'theirs' }, { name: 'ca.pem', bytes: demo.certificatePem })).statusCode, user).toBe(403);
      expect((await t.call(user, 'PUT', `${ANCHORS}/${id}`, { name: 'x', incoming: true, outgoing: true })).statusCode, user).toBe(403);
      expect((await t.call(user, 'DELETE', `${ANCHORS}/${id}`)).statusCode, user).toBe(403);
      expect((await t.call(user, 'GET', `${ANCHORS}/${id}/certificate`)).statusCode, user).toBe(403);
      expect((await t.call(user, 'GET', BUNDLES)).statusCode, user).toBe(403);
      expect((await upload(user, BUNDLES, { name: 'theirs' }, { name: 'b.p7b', bytes: pkcs7(partner) })).statusCode, user).toBe(403);
      expect((await t.call(user, 'PUT', `${BUNDLES}/${id}`, { name: 'x', incoming: true, outgoing: true })).statusCode, user).toBe(403);
      expect((await t.call(user, 'POST', `${BUNDLES}/${id}/refresh`)).statusCode, user).toBe(403);
      expect((await t.call(user, 'DELETE', `${BUNDLES}/${id}`)).statusCode, user).toBe(403);
    }
    expect((await t.call(null, 'GET', ANCHORS)).statusCode).toBe(401);
    expect((await t.call(null, 'GET', BUNDLES)).statusCode).toBe(401);
    expect((await listAnchors()).totalCount).toBe(0);
  });

  let lakesideAnchor: string;
  it('adds a CA from a PEM file for every domain and one from a DER file for Lakeside outgoing only, and lists them', async () => {
    const fromPem = await addAnchor({ name: 'Lakeside test CA' }, { name: 'lakeside-ca.pem', bytes: demo.certificatePem });
    expect(fromPem.statusCode, fromPem.body).toBe(200);
    expect(fromPem.json()).toMatchObject({
      name: 'Lakeside test CA',
      domain: null,
      incoming: true,
      outgoing: true,
      subject: 'CN=Lakeside Test CA, O=Lakeside',
      expired: false,
      bundleId: null,
      bundleName: null,
    });
    expect(fromPem.json().thumbprintSha256).toMatch(/^[0-9A-F]{64}$/);
    lakesideAnchor = fromPem.json().id;

    const fromDer = await addAnchor({ name: 'Partner HISP', domain: ' Lakeside.Direct.Example.org ', incoming: 'false', outgoing: 'true' }, { name: 'partner.CER', bytes: partner.certificateDer });
    expect(fromDer.statusCode, fromDer.body).toBe(200);
    expect(fromDer.json()).toMatchObject({ name: 'Partner HISP', domain: LAKESIDE, incoming: false, outgoing: true, subject: 'CN=Partner HISP CA, O=Partner HISP' });
    expect(new Date(fromDer.json().notAfter).getTime() - Date.now()).toBeGreaterThan(360 * DAY);

    // Downloaded as PEM, to give to another HISP; an unknown id is 404.
    const pem = await t.call(ADMIN, 'GET', `${ANCHORS}/${lakesideAnchor}/certificate`);
    expect(pem.statusCode).toBe(200);
    expect(pem.headers['content-disposition']).toBe('attachment; filename="Lakeside-test-CA.pem"');
    expect(new X509Certificate(pem.body).fingerprint256.replace(/:/g, '')).toBe(fromPem.json().thumbprintSha256);
    expect((await t.call(ADMIN, 'GET', `${ANCHORS}/00000000-0000-4000-8000-000000000000/certificate`)).statusCode).toBe(404);

    const list = await listAnchors();
    expect(list.totalCount).toBe(2);
    expect(list.items.map((a: { name: string }) => a.name)).toEqual(['Lakeside test CA', 'Partner HISP']);
    expect((await listAnchors('&search=partner%20hisp&sortDir=desc')).items).toEqual([fromDer.json()]);
    const [audit] = await t.handle.db.select().from(auditEvents).where(eq(auditEvents.eventType, 'TrustAnchorAdded'));
    expect(audit).toMatchObject({ userName: ADMIN, details: { name: 'Lakeside test CA', thumbprintSha256: fromPem.json().thumbprintSha256 } });
  });

  it('refuses what cannot be an anchor, each with its reason under its field', async () => {
    expect((await addAnchor({ name: 'leaf' }, { name: 'leaf.pem', bytes: pem('CERTIFICATE', leaf) })).json()).toEqual(refusal(text.notACertificateAuthority));
    expect((await addAnchor({ name: 'again' }, { name: 'again.der', bytes: demo.certificateDer })).json()).toEqual(refusal(text.duplicate));
    expect((await addAnchor({ name: 'garbage' }, { name: 'garbage.cer', bytes: randomBytes(800) })).json()).toEqual(refusal(text.notACertificate));
    expect((await addAnchor({ name: 'not pem' }, { name: 'key.pem', bytes: '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n' })).json()).toEqual(refusal(text.notACertificate));
    expect((await addAnchor({ name: 'two' }, { name: 'two.pem', bytes: community.certificatePem + newcomer.certificatePem })).json()).toEqual(refusal(text.severalCertificates));
    expect((await addAnchor({ name: 'no file' })).json()).toEqual(refusal(text.anchorFileRequired));
    expect((await addAnchor({ name: 'pfx' }, { name: 'ca.pfx', bytes: community.certificateDer })).json()).toEqual(refusal(text.anchorFileRequired));
    expect((await addAnchor({ name: 'nowhere', incoming: 'false', outgoing: 'false' }, { name: 'c.pem', bytes: community.certificatePem })).json()).toEqual(refusal(text.directionRequired, 'incoming'));
    expect((await addAnchor({ name: 'bad domain', domain: 'not a domain' }, { name: 'c.pem', bytes: community.certificatePem })).json()).toEqual(refusal(text.domainInvalid, 'domain'));
    expect((await addAnchor({}, { name: 'c.pem', bytes: community.certificatePem })).json()).toEqual(refusal('Name is required.', 'name'));
    expect((await addAnchor({ name: 'x'.repeat(128) }, { name: 'c.pem', bytes: community.certificatePem })).json()).toEqual(refusal('Name must be at most 127 characters.', 'name'));
    const tooBig = await addAnchor({ name: 'big' }, { name: 'big.der', bytes: Buffer.alloc(1024 * 1024 + 1) });
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.json().message).toBe(text.anchorFileTooLarge);
    // The same certificate a while after its notAfter.
    t.clock.now = new Date(Date.now() + 31 * DAY);
    expect((await addAnchor({ name: 'expired' }, { name: 'short.pem', bytes: shortLived.certificatePem })).json()).toEqual(refusal(text.expired));
    t.clock.now = startedAt;
    expect((await listAnchors()).totalCount).toBe(2);
  });

  it('edits an anchor added by hand and deletes one, with an audit row each', async () => {
    const edited = await t.call(ADMIN, 'PUT', `${ANCHORS}/${lakesideAnchor}`, { name: 'Lakeside CA', domain: RIVERVIEW.toUpperCase(), incoming: true, outgoing: false });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({ id: lakesideAnchor, name: 'Lakeside CA', domain: RIVERVIEW, incoming: true, outgoing: false });
    const back = await t.call(ADMIN, 'PUT', `${ANCHORS}/${lakesideAnchor}`, { name: 'Lakeside CA', domain: '', incoming: true, outgoing: true });
    expect(back.json()).toMatchObject({ domain: null, incoming: true, outgoing: true });
    expect((await t.call(ADMIN, 'PUT', `${ANCHORS}/${lakesideAnchor}`, { name: 'Lakeside CA', incoming: false, outgoing: false })).json()).toEqual(refusal(text.directionRequired, 'incoming'));
    expect((await t.call(ADMIN, 'PUT', `${ANCHORS}/00000000-0000-4000-8000-000000000000`, { name: 'x', incoming: true, outgoing: true })).statusCode).toBe(404);
    expect((await t.call(ADMIN, 'PUT', `${ANCHORS}/not-an-id`, { name: 'x', incoming: true, outgoing: true })).statusCode).toBe(400);

    const temporary = await addAnchor({ name: 'Temporary' }, { name: 'community.crt', bytes: community.certificatePem });
    expect(temporary.statusCode, temporary.body).toBe(200);
    expect((await t.call(ADMIN, 'DELETE', `${ANCHORS}/${temporary.json().id}`)).json()).toEqual({ ok: true });
    expect((await t.call(ADMIN, 'DELETE', `${ANCHORS}/${temporary.json().id}`)).statusCode).toBe(404);
    expect((await listAnchors()).totalCount).toBe(2);
    expect(await auditTypes()).toEqual(expect.arrayContaining(['TrustAnchorChanged', 'TrustAnchorDeleted']));
  });

  let fileBundle: string;
  it('adds a bundle of two CAs from a PKCS#7 file (DER and PEM); its anchors change only with the bundle', async () => {
    const der = await addBundle({ name: 'Community file', domain: LAKESIDE, outgoing: 'false' }, { name: 'community.p7b', bytes: pkcs7(community, newcomer) });
    expect(der.statusCode, der.body).toBe(200);
    expect(der.json()).toMatchObject({ name: 'Community file', url: null, domain: LAKESIDE, incoming: true, outgoing: false, refreshIntervalMinutes: 1440, lastError: null, anchorCount: 2 });
    expect(der.json().checksum).toMatch(/^[0-9a-f]{64}$/);
    fileBundle = der.json().id;

    const anchors = (await listAnchors('&search=community%20file')).items;
    expect(anchors.map((a: { name: string }) => a.name).sort()).toEqual(['Community Root CA', 'Newcomer CA']);
    for (const anchor of anchors) {
      expect(anchor).toMatchObject({ bundleId: fileBundle, bundleName: 'Community file', domain: LAKESIDE, incoming: true, outgoing: false });
      expect((await t.call(ADMIN, 'PUT', `${ANCHORS}/${anchor.id}`, { name: 'mine', incoming: true, outgoing: true })).json()).toEqual({ message: text.fromBundle });
      expect((await t.call(ADMIN, 'DELETE', `${ANCHORS}/${anchor.id}`)).json()).toEqual({ message: text.fromBundle });
    }
    // A certificate in a bundle may also be an anchor by hand.
    expect((await addAnchor({ name: 'Community by hand', domain: RIVERVIEW }, { name: 'c.der', bytes: community.certificateDer })).statusCode).toBe(200);

    const pemBundle = await addBundle({ name: 'Partner PEM' }, { name: 'partner.pem', bytes: pem('PKCS7', pkcs7(partner)) });
    expect(pemBundle.statusCode, pemBundle.body).toBe(200);
    expect(pemBundle.json()).toMatchObject({ anchorCount: 1, domain: null });

    // The bundle's settings carry over to its anchors.
    const edited = await t.call(ADMIN, 'PUT', `${BUNDLES}/${fileBundle}`, { name: 'Community file', url: null, domain: null, incoming: true, outgoing: true, refreshIntervalMinutes: 60 });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({ domain: null, outgoing: true, refreshIntervalMinutes: 60, anchorCount: 2 });
    expect((await anchorsOf(fileBundle)).map((a) => [a.domain, a.incoming, a.outgoing])).toEqual([
      [null, true, true],
      [null, true, true],
    ]);
    expect((await t.call(ADMIN, 'POST', `${BUNDLES}/${fileBundle}/refresh`)).json()).toEqual({ message: text.refreshFromFile });

    const list = (await t.call(ADMIN, 'GET', BUNDLES)).json();
    expect(list.totalCount).toBe(2);
    expect(list.items.map((b: { name: string }) => b.name)).toEqual(['Community file', 'Partner PEM']);
    expect(await auditTypes()).toEqual(expect.arrayContaining(['TrustBundleAdded', 'TrustBundleChanged']));
  });

  it('refuses bundle files that are not PKCS#7, and a name taken', async () => {
    expect((await addBundle({ name: 'garbage' }, { name: 'g.p7b', bytes: randomBytes(500) })).json()).toEqual(refusal(text.notABundle));
    expect((await addBundle({ name: 'text' }, { name: 'g.pem', bytes: 'hello' })).json()).toEqual(refusal(text.notABundle));
    expect((await addBundle({ name: 'empty' }, { name: 'e.p7c', bytes: pkcs7() })).json()).toEqual(refusal(text.emptyBundle));
    expect((await addBundle({ name: 'none' })).json()).toEqual(refusal(text.bundleSourceRequired));
    expect((await addBundle({ name: 'both', url: `${baseUrl}/b.p7b` }, { name: 'b.p7b', bytes: pkcs7(partner) })).json()).toEqual(refusal(text.bundleSourceBoth, 'url'));
    expect((await addBundle({ name: 'ftp', url: 'ftp://example.org/b.p7b' })).json()).toEqual(refusal(text.urlInvalid, 'url'));
    expect((await addBundle({ name: 'often', refreshIntervalMinutes: '5' }, { name: 'b.p7b', bytes: pkcs7(partner) })).json()).toEqual(
      refusal('Refresh interval must be at least 15 minutes.', 'refreshIntervalMinutes'),
    );
    expect((await addBundle({ name: 'community FILE' }, { name: 'b.p7b', bytes: pkcs7(partner) })).json()).toEqual(refusal(text.nameTaken, 'name'));
    expect((await t.call(ADMIN, 'GET', BUNDLES)).json().totalCount).toBe(2);
  });

  let urlBundle: string;
  it('adds a bundle from a URL, and a refresh replaces its anchors only when the bundle changed', async () => {
    bundleServer.state.status = 404;
    const missing = await addBundle({ name: 'Community URL', url: `${baseUrl}/missing.p7b` });
    expect(missing.json()).toEqual(refusal('The bundle could not be downloaded: the server answered 404 Not Found.', 'url'));

    bundleServer.state.status = 200;
    bundleServer.state.body = pkcs7(community, newcomer);
    const added = await addBundle({ name: 'Community URL', url: `${baseUrl}/community.p7b`, refreshIntervalMinutes: '30', incoming: 'true', outgoing: 'true' });
    expect(added.statusCode, added.body).toBe(200);
    expect(added.json()).toMatchObject({ url: `${baseUrl}/community.p7b`, refreshIntervalMinutes: 30, anchorCount: 2, lastError: null });
    urlBundle = added.json().id;
    const before = (await anchorsOf(urlBundle)).map((a) => a.id).sort();

    // Unchanged: the same anchor rows, a new lastRefreshedAt.
    t.clock.now = new Date(startedAt.getTime() + MINUTE);
    const same = await t.call(ADMIN, 'POST', `${BUNDLES}/${urlBundle}/refresh`);
    expect(same.statusCode, same.body).toBe(200);
    expect(same.json()).toMatchObject({ checksum: added.json().checksum, lastError: null, lastRefreshedAt: t.clock.now.toISOString() });
    expect((await anchorsOf(urlBundle)).map((a) => a.id).sort()).toEqual(before);

    // Changed: the new bundle's anchors, and only them.
    bundleServer.state.body = pkcs7(partner);
    const changed = (await t.call(ADMIN, 'POST', `${BUNDLES}/${urlBundle}/refresh`)).json();
    expect(changed).toMatchObject({ anchorCount: 1, lastError: null });
    expect(changed.checksum).not.toBe(added.json().checksum);
    expect((await anchorsOf(urlBundle)).map((a) => a.name)).toEqual(['Partner HISP CA']);

    // Unreachable or broken: the anchors stay, the reason is shown.
    bundleServer.state.status = 503;
    const failed = (await t.call(ADMIN, 'POST', `${BUNDLES}/${urlBundle}/refresh`)).json();
    expect(failed).toMatchObject({ anchorCount: 1, checksum: changed.checksum, lastRefreshedAt: changed.lastRefreshedAt, lastError: 'The bundle could not be downloaded: the server answered 503 Service Unavailable.' });
    bundleServer.state.status = 200;
    bundleServer.state.body = Buffer.from('<html>maintenance</html>');
    expect((await t.call(ADMIN, 'POST', `${BUNDLES}/${urlBundle}/refresh`)).json()).toMatchObject({ anchorCount: 1, lastError: text.notABundle });
    expect((await anchorsOf(urlBundle)).map((a) => a.name)).toEqual(['Partner HISP CA']);
    expect(await auditTypes()).toEqual(expect.arrayContaining(['TrustBundleRefreshed', 'TrustBundleRefreshFailed']));

    // A new URL is read at once, and clears the error.
    bundleServer.state.body = pkcs7(partner);
    const moved = await t.call(ADMIN, 'PUT', `${BUNDLES}/${urlBundle}`, { name: 'Community URL', url: `${baseUrl}/v2.p7b`, incoming: true, outgoing: true, refreshIntervalMinutes: 30 });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json()).toMatchObject({ url: `${baseUrl}/v2.p7b`, anchorCount: 1, lastError: null, checksum: changed.checksum });
    t.clock.now = startedAt;
  });

  it('refreshes the URL bundles that are due on the timer, and records a refused connection', async () => {
    bundleServer.state.body = pkcs7(community, newcomer);
    const deps = { db: t.handle.db };
    // Last read at startedAt + 1 minute (the refreshes since failed), every 30 minutes.
    const lastRead = startedAt.getTime() + MINUTE;
    const at = (minutes: number) => () => new Date(lastRead + minutes * MINUTE);
    expect(await refreshDueBundles({ ...deps, now: at(29) })).toBe(0);
    expect(await refreshDueBundles({ ...deps, now: at(31) })).toBe(1);
    expect((await anchorsOf(urlBundle)).map((a) => a.name).sort()).toEqual(['Community Root CA', 'Newcomer CA']);
    expect(await refreshDueBundles({ ...deps, now: at(60) })).toBe(0);

    const requests = bundleServer.state.requests;
    const fetched: string[] = [];
    let answer: () => Promise<Uint8Array> = () => Promise.reject(new BundleUnavailable('the server answered 500 Internal Server Error'));
    const fetch = (url: string) => {
      fetched.push(url);
      return answer();
    };
    expect(await refreshDueBundles({ ...deps, now: at(62), fetch })).toBe(0);
    // A failed read leaves lastRefreshedAt, so the next tick tries again rather than waiting another interval.
    answer = async () => pkcs7(community);
    expect(await refreshDueBundles({ ...deps, now: at(63), fetch })).toBe(1);
    // Only the URL bundle is read; the file bundles have nothing to fetch.
    expect(fetched).toEqual([`${baseUrl}/v2.p7b`, `${baseUrl}/v2.p7b`]);
    expect(bundleServer.state.requests).toBe(requests);
    expect((await anchorsOf(urlBundle)).map((a) => a.name)).toEqual(['Community Root CA']);
    expect((await t.call(ADMIN, 'GET', BUNDLES)).json().items.find((b: { id: string }) => b.id === urlBundle)).toMatchObject({
      lastRefreshedAt: new Date(at(63)().getTime()).toISOString(),
      lastError: null,
    });

    await bundleServer.close();
    const refused = (await t.call(ADMIN, 'POST', `${BUNDLES}/${urlBundle}/refresh`)).json();
    expect(refused).toMatchObject({ anchorCount: 1, lastError: 'The bundle could not be downloaded: the server refused the connection.' });
    expect((await anchorsOf(urlBundle)).map((a) => a.name)).toEqual(['Community Root CA']);
    const elsewhere = await t.call(ADMIN, 'PUT', `${BUNDLES}/${urlBundle}`, { name: 'Community URL', url: `${baseUrl}/v3.p7b`, incoming: true, outgoing: true });
    expect(elsewhere.json()).toEqual(refusal('The bundle could not be downloaded: the server refused the connection.', 'url'));
    expect((await t.call(ADMIN, 'GET', BUNDLES)).json().items.find((b: { id: string }) => b.id === urlBundle)).toMatchObject({ url: `${baseUrl}/v2.p7b`, anchorCount: 1 });
  });

  it('refreshes on a timer in the background, logging what it did and any failure without throwing', async () => {
    const logged: { level: string; obj: object; msg: string }[] = [];
    const logger = { info: (obj: object, msg: string) => logged.push({ level: 'info', obj, msg }), warn: (obj: object, msg: string) => logged.push({ level: 'warn', obj, msg }) };
    const later = () => new Date(startedAt.getTime() + DAY);
    const running = startBundleRefresh({ db: t.handle.db, now: later, logger, intervalMs: 60_000, fetch: async () => pkcs7(community) });
    await expect.poll(() => logged).toEqual([{ level: 'info', obj: { count: 1 }, msg: 'refreshed trust bundles' }]);
    running.stop();

    const brokenDb = {
      select: () => {
        throw new Error('connection lost');
      },
    } as unknown as Database;
    const broken = startBundleRefresh({ db: brokenDb, now: later, logger, intervalMs: 60_000 });
    await expect.poll(() => logged.at(-1)?.level).toBe('warn');
    expect(logged.at(-1)?.msg).toBe('trust bundle refresh failed; will try again');
    broken.stop();
  });

  it('finds the anchors of a hosted domain for one direction', async () => {
    const subjects = async (domain: string, direction: 'incoming' | 'outgoing') =>
      (await findAnchors(t.handle.db, { domain, direction })).map((der) => new X509Certificate(der).subject.replace(/\n.*$/s, '').replace('CN=', '')).sort();
    // By hand: Lakeside Test CA (every domain, both ways), Partner HISP CA (Lakeside, outgoing), Community Root CA
    // (Riverview, both). Bundles for every domain, both ways: the file's Community Root CA and Newcomer CA, the PEM's
    // Partner HISP CA, the URL's Community Root CA.
    const everywhere = ['Community Root CA', 'Community Root CA', 'Lakeside Test CA', 'Newcomer CA', 'Partner HISP CA'];
    expect(await subjects(LAKESIDE.toUpperCase(), 'outgoing')).toEqual([...everywhere, 'Partner HISP CA'].sort());
    expect(await subjects(LAKESIDE, 'incoming')).toEqual(everywhere);
    expect(await subjects(RIVERVIEW, 'incoming')).toEqual([...everywhere, 'Community Root CA'].sort());
    expect(await subjects('elsewhere.example.org', 'incoming')).toEqual(everywhere);

    await t.call(ADMIN, 'PUT', `${BUNDLES}/${fileBundle}`, { name: 'Community file', domain: RIVERVIEW, incoming: false, outgoing: true });
    expect(await subjects(LAKESIDE, 'incoming')).toEqual(['Community Root CA', 'Lakeside Test CA', 'Partner HISP CA']);
    expect(await subjects(RIVERVIEW, 'outgoing')).toEqual([...everywhere, 'Community Root CA'].sort());
  });

  it('deletes a bundle with its anchors', async () => {
    expect((await t.call(ADMIN, 'DELETE', `${BUNDLES}/${fileBundle}`)).json()).toEqual({ ok: true });
    expect(await anchorsOf(fileBundle)).toEqual([]);
    expect((await t.call(ADMIN, 'DELETE', `${BUNDLES}/${fileBundle}`)).statusCode).toBe(404);
    expect((await t.call(ADMIN, 'POST', `${BUNDLES}/${fileBundle}/refresh`)).statusCode).toBe(404);
    expect((await t.call(ADMIN, 'GET', BUNDLES)).json().items.map((b: { name: string }) => b.name)).toEqual(['Community URL', 'Partner PEM']);
    expect(await auditTypes()).toContain('TrustBundleDeleted');
  });

  const missing = opensslMissing();
  it.skipIf(missing)('reads the bundles OpenSSL writes (crl2pkcs7, PEM and DER)', async () => {
    const files = { 'a.pem': demo.certificatePem, 'b.pem': partner.certificatePem };
    const asPem = await openssl(['crl2pkcs7', '-nocrl', '-certfile', 'a.pem', '-certfile', 'b.pem'], files);
    expect(asPem.code, asPem.stderr).toBe(0);
    const fromPem = await addBundle({ name: 'OpenSSL PEM' }, { name: 'openssl.p7b', bytes: asPem.stdout });
    expect(fromPem.json()).toMatchObject({ anchorCount: 2 });
    // -outform DER writes the PEM's base64 body as bytes.
    const der = Buffer.from(asPem.stdout.replace(/-----[A-Z0-9 ]+-----|\s/g, ''), 'base64');
    const fromDer = await addBundle({ name: 'OpenSSL DER' }, { name: 'openssl.p7c', bytes: der });
    expect(fromDer.json()).toMatchObject({ anchorCount: 2 });
  });
});
