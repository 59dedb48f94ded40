import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import { desc, eq, ilike, ne } from 'drizzle-orm';
import { auditEvents } from '../../db/schema/audit.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../db/schema/messages.ts';
import { organizations } from '../../db/schema/organizations.ts';
import { createTestApp, TEST_PASSWORD, type TestContext } from '../../test/app.ts';

const run = promisify(execFile);

// Issue 29 §1: both flows walked end to end with a real HTTP client against the listening server (no inject).
describe('OAuth 2.0 flows over HTTP', () => {
  let t: TestContext;
  let base: string;
  let lakesideId: string;
  let client: { id: string; clientId: string; secret: string };
  const redirectUri = 'https://acme.example.com/callback';
  const cookies = new Map<string, string>();
  let received: { own: string; foreign: string };

  const keepCookies = (res: Response) => {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const [name, ...value] = pair!.split('=');
      cookies.set(name!, value.join('='));
    }
  };
  const cookieHeader = () => [...cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;
  const token = (params: Record<string, string>, secret = client.secret) =>
    fetch(`${base}/oauth/token`, { method: 'POST', headers: { authorization: basic(client.clientId, secret), 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(params) });
  const api = (accessToken: string, method: string, path: string, body?: unknown) =>
    fetch(`${base}${path}`, { method, headers: { authorization: `Bearer ${accessToken}`, ...(body ? { 'content-type': 'application/json' } : {}) }, ...(body ? { body: JSON.stringify(body) } : {}) });
  const signIn = async (userName: string) =>
    ((await (await fetch(`${base}/api/account/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ userName, password: TEST_PASSWORD }) })).json()) as { accessToken: string }).accessToken;

  // The browser's part: /oauth/authorize, the consent page's calls as the signed-in user, and the redirects back.
  async function authorize(decision: boolean, userToken: string, scope = 'openid offline_access intake.read') {
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const query = new URLSearchParams({ client_id: client.clientId, redirect_uri: redirectUri, response_type: 'code', scope, state: 'xyz', code_challenge: challenge, code_challenge_method: 'S256' });
    let res = await fetch(`${base}/oauth/authorize?${query.toString()}`, { redirect: 'manual', headers: { cookie: cookieHeader() } });
    keepCookies(res);
    expect(res.status).toBe(303);
    const consentPath = res.headers.get('location')!;
    expect(consentPath).toMatch(/^\/consent\/[\w-]+$/);
    const uid = consentPath.split('/').pop()!;
    const details = await api(userToken, 'GET', `/api/oauth/consent/${uid}`);
    expect(details.status).toBe(200);
    const answer = await api(userToken, 'POST', `/api/oauth/consent/${uid}`, { allow: decision });
    expect(answer.status).toBe(200);
    let next = ((await answer.json()) as { redirectTo: string }).redirectTo;
    for (let hop = 0; hop < 5 && !next.startsWith(redirectUri); hop++) {
      res = await fetch(new URL(next, base), { redirect: 'manual', headers: { cookie: cookieHeader() } });
      keepCookies(res);
      next = res.headers.get('location') ?? '';
    }
    expect(next.startsWith(redirectUri)).toBe(true);
    return { callback: new URL(next), verifier, details: (await (await api(userToken, 'GET', `/api/oauth/consent/${uid}`)).json()), uid };
  }

  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    [{ id: lakesideId }] = (await t.handle.db.select({ id: organizations.id }).from(organizations).where(ilike(organizations.name, 'Lakeside%')).limit(1)) as [{ id: string }];
    const sysadmin = await signIn('sysadmin@example.org');
    const created = await api(sysadmin, 'POST', '/api/admin/clientapplications', {
      name: 'Acme EHR', logoUrl: 'https://acme.example.com/logo.png', redirectURI: redirectUri, applicationUrl: 'https://acme.example.com', organizationId: lakesideId,
    });
    expect(created.status).toBe(200);
    client = (await created.json()) as typeof client;
    const [other] = await t.handle.db.select({ id: organizations.id }).from(organizations).where(ne(organizations.id, lakesideId)).limit(1);
    const receive = async (organizationId: string, subject: string) =>
      (await t.handle.db.insert(messages).values({ organizationId, direction: 'Inbound', subject, fromAddress: 'sender@hisp.example.net', toAddress: 'to@direct.example.org', isDraft: false, status: 'Received', sourceType: 'Direct', systemReceivedDate: new Date(), messageDate: new Date() }).returning({ id: messages.id }))[0]!.id;
    received = { own: await receive(lakesideId, 'Referral for Lakeside'), foreign: await receive(other!.id, 'Someone else') };
  }, 120_000);
  afterAll(() => t.close());

  it('publishes discovery metadata (RFC 8414 and OpenID Connect)', async () => {
    for (const path of ['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration']) {
      const res = await fetch(`${base}${path}`);
      expect(res.status).toBe(200);
      const metadata = (await res.json()) as Record<string, unknown>;
      expect(metadata).toMatchObject({ token_endpoint: `${base}/oauth/token`, authorization_endpoint: `${base}/oauth/authorize`, revocation_endpoint: `${base}/oauth/revoke`, introspection_endpoint: `${base}/oauth/introspect`, code_challenge_methods_supported: ['S256'] });
      expect(metadata.grant_types_supported).toEqual(expect.arrayContaining(['authorization_code', 'client_credentials', 'refresh_token']));
      expect(metadata.scopes_supported).toEqual(expect.arrayContaining(['intake.read', 'release.send', 'directory.read']));
    }
  });

  it('client credentials: a token lists its organization Intake, another organization message is 404, an unscoped route is insufficient_scope', async () => {
    const res = await token({ grant_type: 'client_credentials', scope: 'intake.read directory.read' });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { access_token: string; scope: string; token_type: string; expires_in: number };
    expect(body).toMatchObject({ token_type: 'Bearer', scope: 'intake.read directory.read', expires_in: 3600 });
    const intake = await api(body.access_token, 'POST', '/api/intake', {});
    expect(intake.status).toBe(200);
    const list = (await intake.json()) as { items: { id: string }[] };
    expect(list.items.map((m) => m.id)).toContain(received.own);
    expect(list.items.map((m) => m.id)).not.toContain(received.foreign);
    // The audit row of the list names the application that read it.
    const [viewed] = await t.handle.db.select().from(auditEvents).where(eq(auditEvents.eventType, 'MessageListViewed')).orderBy(desc(auditEvents.createdAt)).limit(1);
    expect(viewed!.details).toMatchObject({ application: { clientId: client.clientId, name: 'Acme EHR' } });
    expect(viewed!.organizationId).toBe(lakesideId);
    expect((await api(body.access_token, 'GET', `/api/messages/${received.foreign}`)).status).toBe(404);
    expect((await api(body.access_token, 'GET', `/api/messages/${list.items[0]!.id}`)).status).toBe(200);
    const unscoped = await api(body.access_token, 'GET', '/api/users');
    expect(unscoped.status).toBe(403);
    expect(unscoped.headers.get('www-authenticate')).toContain('insufficient_scope');
    expect(await unscoped.json()).toMatchObject({ error: 'insufficient_scope' });
    const notGranted = await api(body.access_token, 'POST', '/api/messages/00000000-0000-4000-8000-000000000000/send');
    expect(notGranted.status).toBe(403);
    expect(notGranted.headers.get('www-authenticate')).toContain('scope="release.send"');
    expect((await token({ grant_type: 'client_credentials' }, 'wrong-secret')).status).toBe(401);
  });

  it('introspects (RFC 7662) and revokes (RFC 7009): a revoked token is refused at once', async () => {
    const { access_token: accessToken } = (await (await token({ grant_type: 'client_credentials', scope: 'intake.read' })).json()) as { access_token: string };
    const introspect = (value: string) =>
      fetch(`${base}/oauth/introspect`, { method: 'POST', headers: { authorization: basic(client.clientId, client.secret), 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ token: value }) });
    const active = (await (await introspect(accessToken)).json()) as Record<string, unknown>;
    expect(active).toMatchObject({ active: true, client_id: client.clientId, scope: 'intake.read', token_type: 'Bearer' });
    const revoked = await fetch(`${base}/oauth/revoke`, { method: 'POST', headers: { authorization: basic(client.clientId, client.secret), 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ token: accessToken }) });
    expect(revoked.status).toBe(200);
    expect((await api(accessToken, 'POST', '/api/intake', {})).status).toBe(401);
    expect(await (await introspect(accessToken)).json()).toEqual({ active: false });
  });

  it('authorization code with PKCE: consent, code exchange, replayed code, refused consent, wrong redirect URI', async () => {
    const userToken = await signIn('user@lakeside.example.org');
    const wrong = await fetch(`${base}/oauth/authorize?${new URLSearchParams({ client_id: client.clientId, redirect_uri: 'https://evil.example.net/cb', response_type: 'code', scope: 'intake.read', code_challenge: 'x'.repeat(43), code_challenge_method: 'S256' }).toString()}`, { redirect: 'manual' });
    expect(wrong.status).toBe(400);
    expect(wrong.headers.get('location')).toBeNull();
    expect(await wrong.text()).toContain('redirect_uri');
    const noPkce = await fetch(`${base}/oauth/authorize?${new URLSearchParams({ client_id: client.clientId, redirect_uri: redirectUri, response_type: 'code', scope: 'intake.read' }).toString()}`, { redirect: 'manual' });
    expect(noPkce.headers.get('location')).toContain('error=invalid_request');

    const refused = await authorize(false, userToken);
    expect(refused.callback.searchParams.get('error')).toBe('access_denied');
    expect(refused.callback.searchParams.get('code')).toBeNull();

    const allowed = await authorize(true, userToken);
    // The interaction is answered: the consent page cannot be shown again.
    expect(allowed.details).toMatchObject({ exceptionMessage: expect.any(String) });
    const code = allowed.callback.searchParams.get('code')!;
    expect(allowed.callback.searchParams.get('state')).toBe('xyz');
    const exchanged = await token({ grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: allowed.verifier });
    expect(exchanged.status).toBe(200);
    const tokens = (await exchanged.json()) as { access_token: string; refresh_token: string; id_token: string; scope: string };
    expect(tokens.refresh_token).toBeTruthy();
    expect(tokens.scope).toContain('intake.read');
    const intake = await api(tokens.access_token, 'POST', '/api/intake', {});
    expect(intake.status).toBe(200);
    const replay = await token({ grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: allowed.verifier });
    expect(replay.status).toBe(400);
    expect(((await replay.json()) as { error: string }).error).toBe('invalid_grant');
    // A replayed code revokes what it produced (RFC 6749 §4.1.2).
    expect((await api(tokens.access_token, 'POST', '/api/intake', {})).status).toBe(401);
  });

  it('shows the consent screen the application, its scopes, the user and the organization', async () => {
    const userToken = await signIn('user@lakeside.example.org');
    const verifier = randomBytes(32).toString('base64url');
    const query = new URLSearchParams({ client_id: client.clientId, redirect_uri: redirectUri, response_type: 'code', scope: 'intake.read release.send', code_challenge: createHash('sha256').update(verifier).digest('base64url'), code_challenge_method: 'S256' });
    const res = await fetch(`${base}/oauth/authorize?${query.toString()}`, { redirect: 'manual' });
    const uid = res.headers.get('location')!.split('/').pop()!;
    const details = (await (await api(userToken, 'GET', `/api/oauth/consent/${uid}`)).json()) as Record<string, unknown>;
    expect(details).toMatchObject({
      clientName: 'Acme EHR',
      logoUrl: 'https://acme.example.com/logo.png',
      userName: 'user@lakeside.example.org',
      organizationName: expect.stringMatching(/^Lakeside/),
      scopes: [
        { scope: 'intake.read', description: 'Read the messages your organization receives (Intake)' },
        { scope: 'release.send', description: 'Send documents for your organization (Release)' },
      ],
    });
    expect((await fetch(`${base}/api/oauth/consent/${uid}`)).status).toBe(401);
  });

  it('scripts/oauth-check.mjs gets a token by client credentials and lists the organization Intake', async () => {
    const script = path.join(import.meta.dirname, '../../../../../scripts/oauth-check.mjs');
    const { stdout } = await run(process.execPath, [script, base, client.clientId, client.secret]);
    expect(stdout).toMatch(/^oauth-check: ok: token scope "intake.read", expires in 3600 s; Intake lists [1-9]\d* message\(s\)/);
    await expect(run(process.execPath, [script, base, client.clientId, 'wrong'])).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('token failed: HTTP 401 invalid_client') });
  });

  it('rotates refresh tokens (a reused one revokes the grant), and a regenerated secret kills the old secret and every token at once', async () => {
    const userToken = await signIn('user@lakeside.example.org');
    const allowed = await authorize(true, userToken);
    const tokens = (await (await token({ grant_type: 'authorization_code', code: allowed.callback.searchParams.get('code')!, redirect_uri: redirectUri, code_verifier: allowed.verifier })).json()) as { access_token: string; refresh_token: string };
    const refreshed = await token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
    expect(refreshed.status).toBe(200);
    const rotated = (await refreshed.json()) as { access_token: string; refresh_token: string };
    expect(rotated.refresh_token).not.toBe(tokens.refresh_token);
    expect((await api(rotated.access_token, 'POST', '/api/intake', {})).status).toBe(200);
    const reused = await token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
    expect(reused.status).toBe(400);

    // A rotated-out refresh token used again revokes the whole grant: whoever holds the newer one loses it too.
    expect((await api(rotated.access_token, 'POST', '/api/intake', {})).status).toBe(401);
    expect((await token({ grant_type: 'refresh_token', refresh_token: rotated.refresh_token })).status).toBe(400);

    const { access_token: integrationToken } = (await (await token({ grant_type: 'client_credentials', scope: 'intake.read' })).json()) as { access_token: string };
    const again = await authorize(true, userToken);
    const userAccess = (await (await token({ grant_type: 'authorization_code', code: again.callback.searchParams.get('code')!, redirect_uri: redirectUri, code_verifier: again.verifier })).json()) as { access_token: string; refresh_token: string };
    expect((await api(userAccess.access_token, 'POST', '/api/intake', {})).status).toBe(200);
    const sysadmin = await signIn('sysadmin@example.org');
    const reset = await api(sysadmin, 'POST', `/api/admin/clientapplications/${client.id}/credentials`);
    const { secret } = (await reset.json()) as { secret: string };
    expect((await api(integrationToken, 'POST', '/api/intake', {})).status).toBe(401);
    expect((await api(userAccess.access_token, 'POST', '/api/intake', {})).status).toBe(401);
    expect((await token({ grant_type: 'refresh_token', refresh_token: userAccess.refresh_token }, secret)).status).toBe(400);
    expect((await token({ grant_type: 'client_credentials', scope: 'intake.read' })).status).toBe(401);
    const fresh = await token({ grant_type: 'client_credentials', scope: 'intake.read' }, secret);
    expect(fresh.status).toBe(200);
    client.secret = secret;
  });
});
