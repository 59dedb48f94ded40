import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../test/database.ts';
import type { DatabaseHandle } from './client.ts';
import { countRows } from './count.ts';

// A grid's total: exact up to the cap, read no further; past it the planner's estimate, never below the cap + 1.
describe('countRows', () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await createTestDatabase();
    await handle.db.execute(sql`create table counted (n integer not null)`);
    await handle.db.execute(sql`insert into counted select g from generate_series(1, 500) g`);
    await handle.db.execute(sql`analyze counted`);
  });
  afterAll(() => handle.close());

  it('counts exactly up to the cap', async () => {
    expect(await countRows(handle.db, sql`counted where n <= ${40}`, 100)).toBe(40);
    expect(await countRows(handle.db, sql`counted`, 500)).toBe(500);
    expect(await countRows(handle.db, sql`counted where n < ${0}`, 100)).toBe(0);
  });

  it('estimates past the cap, at least cap + 1', async () => {
    expect(await countRows(handle.db, sql`counted`, 100)).toBe(500);
    expect(await countRows(handle.db, sql`counted where n % 7 = 0`, 10)).toBeGreaterThanOrEqual(11);
  });
});
