import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { Database } from '../client.ts';
import { resellers } from '../schema/back-office.ts';
import { organizations } from '../schema/organizations.ts';

// The demo world's resellers (back-office-a §3): one of each type, both Riverview's, so the organization edit page
// shows an affiliate and a licensing reseller side by side. Like the demo features, not in the test template (whose
// tests expect no reseller). Idempotent: existing resellers and an organization's chosen ones stay.
export const DEMO_RESELLERS = [
  { type: 0, name: 'Cascade Referral Partners', urlCode: 'cascade-referral', affiliateUrlTag: 'cascade', sponsor: 'Cascade Medical Society', welcomeText: 'Welcome, Cascade Medical Society members!' },
  { type: 1, name: 'Pacific Health Licensing', urlCode: 'pacific-licensing', registrationText: 'Your plan is licensed through Pacific Health Licensing.' },
] as const;

export async function seedDemoResellers(db: Database): Promise<void> {
  await db.transaction(async (tx) => {
    for (const r of DEMO_RESELLERS) await tx.insert(resellers).values({ ...r, urlCodeKey: r.urlCode.toLowerCase() }).onConflictDoNothing();
    const rows = await tx.select({ id: resellers.id, type: resellers.type }).from(resellers).where(inArray(resellers.urlCodeKey, DEMO_RESELLERS.map((r) => r.urlCode)));
    const affiliate = rows.find((r) => r.type === 0);
    const licensing = rows.find((r) => r.type === 1);
    if (!affiliate || !licensing) return;
    await tx
      .update(organizations)
      .set({ affiliateResellerId: affiliate.id, licensingResellerId: licensing.id })
      .where(and(eq(organizations.subdomain, 'riverview'), isNull(organizations.affiliateResellerId), isNull(organizations.licensingResellerId)));
  });
}
