import { DEFAULT_BRAND_NAME } from '@clinicrelay/contracts/messages.ts';
import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { brands } from '../db/schema/back-office.ts';
import { organizations } from '../db/schema/organizations.ts';

// The brand a file or mail is produced under: the organization's own brand, else the installation's (the brand
// registration gives new organizations), else the product name.
export const DEFAULT_BRAND_ID = 'clinicrelay';

export async function brandNameOf(db: DbOrTx, organizationId: string | null): Promise<string> {
  if (organizationId) {
    const [row] = await db
      .select({ name: brands.name })
      .from(organizations)
      .innerJoin(brands, eq(brands.id, organizations.brandId))
      .where(eq(organizations.id, organizationId));
    if (row) return row.name;
  }
  const [installation] = await db.select({ name: brands.name }).from(brands).where(eq(brands.id, DEFAULT_BRAND_ID));
  return installation?.name ?? DEFAULT_BRAND_NAME;
}
