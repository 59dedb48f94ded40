import { count } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { organizations } from '../schema/organizations.ts';
import { memberships, users } from '../schema/users.ts';
import { createTestDatabase } from '../../test/database.ts';
import type { DatabaseHandle } from '../client.ts';
import { seedDemo } from './demo.ts';

describe('demo world', () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await createTestDatabase();
  });
  afterAll(() => handle.close());

  const counts = async () => ({
    organizations: (await handle.db.select({ n: count() }).from(organizations))[0]!.n,
    users: (await handle.db.select({ n: count() }).from(users))[0]!.n,
    memberships: (await handle.db.select({ n: count() }).from(memberships))[0]!.n,
  });

  it('holds the four organizations and eleven demo accounts', async () => {
    expect(await counts()).toEqual({ organizations: 4, users: 11, memberships: 10 });
  });

  it('is idempotent: seeding again adds nothing', async () => {
    await seedDemo(handle.db, { demoPassword: 'Demo-pass-2026!', env: 'test' });
    expect(await counts()).toEqual({ organizations: 4, users: 11, memberships: 10 });
  });

  it('is refused in production mode', async () => {
    await expect(seedDemo(handle.db, { demoPassword: 'Demo-pass-2026!', env: 'production' })).rejects.toThrow(/production/);
  });
});
