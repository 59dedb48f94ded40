import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resellers } from '../schema/back-office.ts';
import { organizations } from '../schema/organizations.ts';
import { createTestDatabase } from '../../test/database.ts';
import type { DatabaseHandle } from '../client.ts';
import { seedDemoResellers } from './demo-resellers.ts';

describe('demo resellers', () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await createTestDatabase();
  });
  afterAll(() => handle.close());

  it('gives Riverview an affiliate and a licensing reseller, once', async () => {
    await seedDemoResellers(handle.db);
    await seedDemoResellers(handle.db);
    const rows = await handle.db.select({ id: resellers.id, name: resellers.name, type: resellers.type }).from(resellers).orderBy(resellers.type);
    expect(rows.map((r) => [r.name, r.type])).toEqual([
      ['Cascade Referral Partners', 0],
      ['Pacific Health Licensing', 1],
    ]);
    const [riverview] = await handle.db.select().from(organizations).where(eq(organizations.subdomain, 'riverview'));
    expect(riverview).toMatchObject({ affiliateResellerId: rows[0]!.id, licensingResellerId: rows[1]!.id });
    const [lakeside] = await handle.db.select().from(organizations).where(eq(organizations.subdomain, 'lakeside'));
    expect(lakeside).toMatchObject({ affiliateResellerId: null, licensingResellerId: null });
  });
});
