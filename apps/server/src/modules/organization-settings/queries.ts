import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { organizations } from '../../db/schema/organizations.ts';

export async function findById(db: DbOrTx, organizationId: string) {
  const [row] = await db
    .select({ id: organizations.id, name: organizations.name, settings: organizations.settings })
    .from(organizations)
    .where(eq(organizations.id, organizationId));
  return row;
}
