import { and, eq, inArray } from 'drizzle-orm';
import { IN_SERVICE_STATUSES } from '@clinicrelay/contracts/document-sources.ts';
import { STAY_CONNECTED_PLAN, subscriptionMessages } from '@clinicrelay/contracts/subscriptions.ts';
import type { DbOrTx } from '../../db/client.ts';
import { documentSources } from '../../db/schema/document-sources.ts';
import { organizations } from '../../db/schema/organizations.ts';
import { AppError } from '../../platform/errors.ts';

// end-user §6: on the Stay Connected plan, forward/reply, release, triage, EMR forwarding and XDS-SD/CDA download
// are not included. The web shows the upgrade prompt instead of acting; the server refuses them too (403).
export async function assertPlanIncludesSending(db: DbOrTx, organizationId: string): Promise<void> {
  const [org] = await db.select({ planId: organizations.planId }).from(organizations).where(eq(organizations.id, organizationId));
  if (org?.planId === STAY_CONNECTED_PLAN) throw new AppError(403, subscriptionMessages.upgradeRequired);
}

// end-user §5/§6: a plan-restricted organization (back-office setting) sends only to fax or phone numbers or to
// addresses on the product's domain.
export async function isPlanRestricted(db: DbOrTx, organizationId: string): Promise<boolean> {
  const [org] = await db.select({ settings: organizations.settings }).from(organizations).where(eq(organizations.id, organizationId));
  return org?.settings.planRestricted === true;
}

// A Direct address on the product's domain: one of this installation's own addresses in service (what local delivery
// reaches). Decision: the product's domain is not a configured name but "hosted here", which also holds for brands.
export async function isHostedDirectAddress(db: DbOrTx, address: string): Promise<boolean> {
  const rows = await db
    .select({ id: documentSources.id })
    .from(documentSources)
    .where(and(eq(documentSources.type, 'Direct'), eq(documentSources.fullAddress, address.toLowerCase()), inArray(documentSources.status, [...IN_SERVICE_STATUSES])))
    .limit(1);
  return rows.length > 0;
}
