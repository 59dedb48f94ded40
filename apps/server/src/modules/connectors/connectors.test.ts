import { describe, expect, it } from 'vitest';
import { useTestApp, type TestContext } from '../../test/app.ts';

const ADMIN = 'sysadmin@example.org';
const OTHERS = ['reporting@example.org', 'admin@lakeside.example.org', 'user@lakeside.example.org'];

// Follows the sign-in window as a browser would: the provider's page, its form, the redirect to our callback.
async function signIn(t: TestContext, form: { accountName: string; email: string; decision?: 'accept' | 'cancel' }) {
  const { url, provider } = (await t.call(ADMIN, 'GET', '/api/connectors/externallogin')).json();
  expect(provider).toBe('sandbox');
  expect(url).toMatch(/^\/api\/connectors\/sandbox\/oauth\/auth\?/);
  const authorize = new URL(url, 'http://localhost');
  const page = await t.app.inject({ method: 'GET', url: authorize.pathname + authorize.search });
  expect(page.statusCode).toBe(200);
  expect(page.body).toContain('sandbox');
  const action = /action="([^"]+)"/.exec(page.body)![1]!;
  const hidden = Object.fromEntries([...page.body.matchAll(/type="hidden" name="([^"]+)" value="([^"]*)"/g)].map((m) => [m[1]!, m[2]!.replaceAll('&#38;', '&')]));
  const query = new URLSearchParams({ ...hidden, accountName: form.accountName, email: form.email, decision: form.decision ?? 'accept' });
  const approved = await t.app.inject({ method: 'GET', url: `${action}?${query.toString()}` });
  if (approved.statusCode !== 302) return approved;
  const back = new URL(approved.headers.location as string, 'http://localhost');
  expect(back.pathname).toBe('/api/connectors/callback');
  return t.app.inject({ method: 'GET', url: back.pathname + back.search });
}

describe('the e-signature connector with the sandbox provider (/api/connectors)', () => {
  const t = useTestApp();

  it('signs in through the sandbox window, records the account once, and removes it', async () => {
    const done = await signIn(t, { accountName: 'Clinic Signatures', email: 'esign@clinic.example.org' });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.body).toContain('Account connected');
    expect(done.body).toContain('<script src="/api/connectors/close-window.js"></script>');
    const accounts = (await t.call(ADMIN, 'GET', '/api/connectors/organization-accounts')).json();
    expect(accounts).toEqual([expect.objectContaining({ type: 'DocuSign (sandbox)', provider: 'sandbox', accountName: 'Clinic Signatures', email: 'esign@clinic.example.org' })]);
    expect(accounts[0]).not.toHaveProperty('accessTokenSealed');

    // The same account again: refreshed, not listed twice.
    await signIn(t, { accountName: 'Clinic Signatures (renamed)', email: 'esign@clinic.example.org' });
    const again = (await t.call(ADMIN, 'GET', '/api/connectors/organization-accounts')).json();
    expect(again).toEqual([expect.objectContaining({ id: accounts[0].id, accountName: 'Clinic Signatures (renamed)' })]);

    expect((await t.call(ADMIN, 'DELETE', `/api/connectors/organization-accounts/${accounts[0].id}`)).json()).toEqual({ ok: true });
    expect((await t.call(ADMIN, 'DELETE', `/api/connectors/organization-accounts/${accounts[0].id}`)).statusCode).toBe(404);
    expect((await t.call(ADMIN, 'GET', '/api/connectors/organization-accounts')).json()).toEqual([]);
  });

  it('records nothing when the tester cancels, the form is incomplete, or the state or code is forged', async () => {
    const cancelled = await signIn(t, { accountName: 'X', email: 'x@example.org', decision: 'cancel' });
    expect(cancelled.body).toContain('The sign-in was cancelled.');
    const incomplete = await signIn(t, { accountName: 'X', email: 'not-an-email' });
    expect(incomplete.statusCode).toBe(400);
    expect(incomplete.body).toContain('Enter a valid email address.');
    const forgedState = await t.app.inject({ method: 'GET', url: '/api/connectors/callback?code=abc&state=forged' });
    expect(forgedState.statusCode).toBe(400);
    // A redirect anywhere but our callback is refused (no open redirect).
    const elsewhere = await t.app.inject({ method: 'GET', url: '/api/connectors/sandbox/oauth/approve?redirect_uri=https%3A%2F%2Fevil.example%2F&state=s&accountName=a&email=a%40b.org&decision=accept' });
    expect(elsewhere.statusCode).toBe(400);
    expect((await t.call(ADMIN, 'GET', '/api/connectors/organization-accounts')).json()).toEqual([]);
  });

  it('answers system administrators only', async () => {
    for (const user of OTHERS) {
      for (const [method, url] of [['GET', '/api/connectors/externallogin'], ['GET', '/api/connectors/organization-accounts'], ['DELETE', '/api/connectors/organization-accounts/00000000-0000-4000-8000-000000000000']] as const) {
        expect((await t.call(user, method, url)).statusCode, `${user} ${method} ${url}`).toBe(403);
      }
    }
  });
});
