import { count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentSources } from '../schema/document-sources.ts';
import { organizations } from '../schema/organizations.ts';
import { memberships, users } from '../schema/users.ts';
import { createTestDatabase } from '../../test/database.ts';
import { queryRows, type DatabaseHandle } from '../client.ts';
import { DEMO_DIRECTORY_PROVIDERS, seedDemoDirectory } from './demo-directory.ts';
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
    documentSources: (await handle.db.select({ n: count() }).from(documentSources))[0]!.n,
  });

  it('gives Lakeside and Riverview their Direct address and fax number', async () => {
    const rows = await handle.db
      .select({ subdomain: organizations.subdomain, type: documentSources.type, address: documentSources.fullAddress, status: documentSources.status })
      .from(documentSources)
      .innerJoin(organizations, eq(organizations.id, documentSources.organizationId))
      .orderBy(documentSources.fullAddress);
    expect(rows).toEqual([
      { subdomain: 'lakeside', type: 'Fax', address: '5035550101', status: 1 },
      { subdomain: 'riverview', type: 'Fax', address: '5035550202', status: 1 },
      { subdomain: 'lakeside', type: 'Direct', address: 'intake@lakeside.direct.example.org', status: 1 },
      { subdomain: 'riverview', type: 'Direct', address: 'referrals@riverview.direct.example.org', status: 1 },
    ]);
  });

  it('holds the four organizations and eleven demo accounts', async () => {
    expect(await counts()).toEqual({ organizations: 4, users: 11, memberships: 10, documentSources: 4 });
  });

  it('is idempotent: seeding again adds nothing', async () => {
    await seedDemo(handle.db, { demoPassword: 'Demo-pass-2026!', env: 'test' });
    expect(await counts()).toEqual({ organizations: 4, users: 11, memberships: 10, documentSources: 4 });
  });

  it('is refused in production mode', async () => {
    await expect(seedDemo(handle.db, { demoPassword: 'Demo-pass-2026!', env: 'production' })).rejects.toThrow(/production/);
  });
});

describe('demo directory', () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await createTestDatabase();
  });
  afterAll(() => handle.close());

  it('loads the same generated providers every time, once, with Direct addresses and both entity types', async () => {
    // Deactivated NPIs without names are not stored.
    const inserted = await seedDemoDirectory(handle);
    expect(inserted).toBeGreaterThan(DEMO_DIRECTORY_PROVIDERS * 0.95);
    const [stats] = await queryRows<{ entries: number; organizations: number; direct: number }>(
      handle.db,
      sql`select count(*)::int as "entries", count(*) filter (where entity_type = 2)::int as "organizations", count(*) filter (where has_direct)::int as "direct" from directory_entries`,
    );
    expect(stats!.entries).toBe(inserted);
    expect(stats!.organizations).toBeGreaterThan(0);
    expect(stats!.direct).toBeGreaterThan(DEMO_DIRECTORY_PROVIDERS / 10);
    // Seeding again adds nothing.
    expect(await seedDemoDirectory(handle)).toBe(0);
  });
});
