import { count } from 'drizzle-orm';
import type { Database } from '../client.ts';
import { emergencies, emergencyCoveredOrganizations, emergencyOrganizations } from '../schema/emergencies.ts';

// The demo world's emergencies (issue 29 §6): one of each state (§4) and the emergency-organization service's list, so
// /admin/emergencies shows something on a first start. Like the demo resellers, not in the test template. Idempotent:
// nothing is added once any emergency exists.
export const DEMO_EMERGENCY_ORGANIZATIONS = [
  { name: 'Lakeside Family Medicine', oid: '2.16.840.1.113883.3.9001.1' },
  { name: 'Riverview Cardiology', oid: '2.16.840.1.113883.3.9001.2' },
  { name: 'Cascade Regional Hospital', oid: '2.16.840.1.113883.3.9001.10' },
  { name: 'Willamette Valley Health Information Exchange', oid: '2.16.840.1.113883.3.9001.11' },
] as const;

const isoDay = (date: Date) => date.toISOString().slice(0, 10);

export async function seedDemoEmergencies(db: Database, now: Date = new Date()): Promise<void> {
  await db.transaction(async (tx) => {
    const [existing] = await tx.select({ n: count() }).from(emergencies);
    if ((existing?.n ?? 0) > 0) return;
    await tx.insert(emergencyOrganizations).values([...DEMO_EMERGENCY_ORGANIZATIONS]).onConflictDoNothing();
    const [lakeside, riverview, cascade, willamette] = DEMO_EMERGENCY_ORGANIZATIONS;
    const demo = [
      { name: 'Pacific Northwest Wildfire Smoke Response', disabledDate: null, organizations: [lakeside, cascade, willamette] },
      { name: 'Winter Storm Response', disabledDate: isoDay(new Date(now.getTime() + 30 * 86_400_000)), organizations: [riverview] },
      { name: 'COVID-19 Public Health Emergency', disabledDate: '2023-05-11', organizations: [lakeside, riverview, cascade] },
    ];
    for (const { organizations, ...values } of demo) {
      const [row] = await tx.insert(emergencies).values(values).returning({ id: emergencies.id });
      await tx.insert(emergencyCoveredOrganizations).values(organizations.map((o) => ({ emergencyId: row!.id, ...o })));
    }
  });
}
