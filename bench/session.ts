import { sql } from 'drizzle-orm';
import { queryRows } from '../apps/server/src/db/client.ts';
import { hashPassword, verifyPassword } from '../apps/server/src/platform/auth/passwords.ts';
import { benchApp, PASSWORD } from './bench-app.ts';
import { compare, measure, measurePair } from './measure.ts';
import { sized } from './size.ts';

const REQUESTS = sized(500, 10);
const SIGN_INS = sized(30, 3);

// The cost of being signed in: every request verifies the JWT and looks the session up in the
// database. Baseline: the same session lookup as raw SQL. Sign-in is dominated by argon2id, so its
// baseline is one argon2id verification.
export async function sessionBenchmarks(): Promise<string[]> {
  const { app, handle, close } = await benchApp();

  const login = () => app.inject({ method: 'POST', url: '/api/account/login', payload: { userName: 'user@lakeside.example.org', password: PASSWORD } });
  const { accessToken } = (await login()).json<{ accessToken: string }>();
  const [session] = await queryRows<{ id: string; user_id: string }>(handle.db, sql`select id, user_id from sessions order by created_at desc limit 1`);

  const profile = await measure('GET /api/users/profiledata', REQUESTS, () =>
    app.inject({ method: 'GET', url: '/api/users/profiledata', headers: { authorization: `Bearer ${accessToken}` } }),
  );
  const rawLookup = await measure('raw SQL session lookup', REQUESTS, () =>
    handle.db.execute(sql`
      select u.user_name, u.is_disabled, s.organization_id, o.is_enabled, m.role,
             array(select r.role from user_system_roles r where r.user_id = u.id) as system_roles
      from sessions s join users u on u.id = s.user_id
      left join organizations o on o.id = s.organization_id
      left join memberships m on m.user_id = s.user_id and m.organization_id = s.organization_id
      where s.id = ${session!.id} and s.user_id = ${session!.user_id} and s.revoked_at is null and s.expires_at > now()`),
  );
  // A route that does nothing but authenticate: its cost over the lookup is JWT + Fastify + serialization.
  const authOnly = await measure('GET /api/users/ipaddress (authentication only)', REQUESTS, () =>
    app.inject({ method: 'GET', url: '/api/users/ipaddress', headers: { authorization: `Bearer ${accessToken}` } }),
  );
  const health = await measure('GET /api/health (public, one query)', REQUESTS, () => app.inject({ method: 'GET', url: '/api/health' }));
  const select1 = await measure('raw SQL select 1', REQUESTS, () => handle.db.execute(sql`select 1`));

  const hash = await hashPassword(PASSWORD);
  // In turns, so a busy machine weighs on both alike.
  const [signIn, argon] = await measurePair({ name: 'POST /api/account/login', op: login }, { name: 'argon2id verify', op: () => verifyPassword(hash, PASSWORD) }, SIGN_INS, sized(10, 1));

  await close();
  return [compare(authOnly, rawLookup), compare(profile, rawLookup), compare(health, select1), compare(signIn, argon)];
}
