import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox } from './db/schema/mail.ts';
import { createTestApp, type TestContext } from './test/app.ts';

// Issue 26: without PUBLIC_URL, links in mails and the reseller URL pointed at port 8080 whatever PORT was.

describe('links without PUBLIC_URL on another PORT', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp({ config: { PORT: '9137' } });
  }, 60_000);
  afterAll(async () => t?.close());

  it('the reseller register URL points at this server’s port', async () => {
    const res = await t.call('sysadmin@example.org', 'GET', '/api/resellers/urlcode?urlCode=spring-clinic');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().fullUrl).toBe('http://localhost:9137/register/spring-clinic');
  });

  it('a password reset mail links to this server’s port', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/users/resetpassword', payload: { userName: 'admin@riverview.example.org' } });
    expect(res.statusCode, res.body).toBe(200);
    const [mail] = await t.handle.db.select().from(mailOutbox).where(and(eq(mailOutbox.toAddress, 'admin@riverview.example.org'), eq(mailOutbox.kind, 'PasswordReset')));
    expect(mail!.textBody).toContain('http://localhost:9137/account/password?token=');
    expect(mail!.textBody).not.toContain('8080');
  });
});

describe('links with PUBLIC_URL', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp({ config: { PORT: '9137', PUBLIC_URL: 'https://relay.example.org/' } });
  }, 60_000);
  afterAll(async () => t?.close());

  it('point at PUBLIC_URL, whatever PORT is', async () => {
    const res = await t.call('sysadmin@example.org', 'GET', '/api/resellers/urlcode?urlCode=spring-clinic');
    expect(res.json().fullUrl).toBe('https://relay.example.org/register/spring-clinic');
  });
});
