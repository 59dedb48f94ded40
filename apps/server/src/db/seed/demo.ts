import { readFileSync } from 'node:fs';
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { displayAddress } from '@clinicrelay/contracts/addresses.ts';
import { SAMPLE_INTAKE_RULE_NAME } from '@clinicrelay/contracts/intake.ts';
import type { Database } from '../client.ts';
import { documentSources } from '../schema/document-sources.ts';
import { featureToggles, organizationFeatures } from '../schema/features.ts';
import { intakeRules, userDocumentSources, userIntakeRules } from '../schema/intake.ts';
import { networkAdministrators, networkOrganizations, networks } from '../schema/networks.ts';
import { eulaAcceptances, eulas } from '../schema/onboarding.ts';
import { organizations } from '../schema/organizations.ts';
import { organizationSpecialties } from '../schema/reference-data.ts';
import { memberships, userPreferences, userSystemRoles, users } from '../schema/users.ts';
import { hashPassword } from '../../platform/auth/passwords.ts';
import { ensureSampleRule } from '../../modules/intake/sample-rule.ts';
import { sanitizeTermsHtml } from '../../modules/eulas/sanitize.ts';
import { seedReferenceData } from './reference.ts';

type OrgSeed = Omit<typeof organizations.$inferInsert, 'id'>;

// What every demo organization needs to open cleanly in the back office's edit page (back-office-a §5).
const demoProfile = (o: { street: string; city: string; zip: string; phone: string; npi: string; contact: [string, string, string] }): Partial<OrgSeed> => ({
  brandId: 'clinicrelay',
  organizationTypeId: 1,
  hispProviderId: 1,
  addressStreet: o.street,
  addressCity: o.city,
  addressState: 'OR',
  addressZip: o.zip,
  addressCountry: 'US',
  primaryPhone: o.phone,
  organizationNpi: o.npi,
  primaryContactFirstName: o.contact[0],
  primaryContactLastName: o.contact[1],
  primaryContactEmail: o.contact[2],
});
const profileColumns = ['organizationTypeId', 'addressStreet', 'addressCity', 'addressState', 'addressZip', 'primaryPhone', 'organizationNpi', 'primaryContactFirstName', 'primaryContactLastName', 'primaryContactEmail'] as const;
// The specialty each demo organization has, by name (the reference-data migration numbers them).
const demoSpecialties: Record<string, string> = { lakeside: 'Family Medicine', riverview: 'Cardiology', hillcrest: 'Pediatrics', oakwood: 'Family Medicine' };
interface UserSeed {
  userName: string;
  firstName: string;
  lastName: string;
  systemRole?: 'SysAdmin' | 'SysAdminReporting';
  memberships?: { org: string; role: 'Administrator' | 'User' }[];
}

const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000);

// The demo world of the foundation issue §9; later issues add their own parts (document sources, messages).
const demoOrganizations: Record<string, OrgSeed> = {
  // Lakeside exports into a folder per patient and visit, so its Intake visit fields are editable.
  lakeside: { ...demoProfile({ street: '100 Lakeshore Drive', city: 'Portland', zip: '97201', phone: '5035550100', npi: '1234567893', contact: ['Laura', 'Lake', 'admin@lakeside.example.org'] }), name: 'Lakeside Family Medicine', subdomain: 'lakeside', isActivated: true, isAcceptedEula: true, eulaAcceptedAt: daysAgo(200), isIdProofed: true, idProofedAttemptDate: daysAgo(200), planId: 'professional', settings: { deliverySummaryEnableDownload: true, exportMode: 'Export', exportOption: 'PatientFolder', exportVisitDirectory: true } },
  // Riverview suppresses the fax cover page, so its fax defaults differ visibly from Lakeside's; it exports
  // into one folder (visit fields disabled). No demo organization is in print export mode: the Intake e2e
  // journey has Riverview's user set a document type, which print mode forbids (component tests cover it).
  riverview: { ...demoProfile({ street: '200 River Road', city: 'Salem', zip: '97301', phone: '5035550200', npi: '1447000005', contact: ['Rachel', 'Rivers', 'admin@riverview.example.org'] }), name: 'Riverview Cardiology', subdomain: 'riverview', isActivated: true, isAcceptedEula: true, eulaAcceptedAt: daysAgo(150), isIdProofed: true, idProofedAttemptDate: daysAgo(150), planId: 'professional', settings: { deliverySummaryEnableDownload: true, suppressCoverPage: true, exportMode: 'Export', exportOption: 'SingleFolder' } },
  hillcrest: { ...demoProfile({ street: '300 Hillcrest Avenue', city: 'Eugene', zip: '97401', phone: '5415550300', npi: '1320000007', contact: ['Hannah', 'Hill', 'admin@hillcrest.example.org'] }), name: 'Hillcrest Pediatrics', subdomain: 'hillcrest', isActivated: false, isAcceptedEula: false, isIdProofed: false, planId: 'professional' },
  oakwood: { ...demoProfile({ street: '400 Oak Street', city: 'Bend', zip: '97701', phone: '5415550400', npi: '1555000003', contact: ['Olivia', 'Oak', 'admin@oakwood.example.org'] }), name: 'Oakwood Clinic', subdomain: 'oakwood', isActivated: true, isAcceptedEula: true, eulaAcceptedAt: daysAgo(400), isIdProofed: true, idProofedAttemptDate: daysAgo(400), cancelledAt: daysAgo(20), subscriptionReference: 'SUB-OAKWOOD-2025-0042', planId: 'professional' },
};

export const demoUsers: UserSeed[] = [
  { userName: 'sysadmin@example.org', firstName: 'Sam', lastName: 'Admin', systemRole: 'SysAdmin' },
  { userName: 'reporting@example.org', firstName: 'Rita', lastName: 'Reports', systemRole: 'SysAdminReporting' },
  { userName: 'admin@lakeside.example.org', firstName: 'Laura', lastName: 'Lake', memberships: [{ org: 'lakeside', role: 'Administrator' }] },
  { userName: 'user@lakeside.example.org', firstName: 'Leo', lastName: 'Shore', memberships: [{ org: 'lakeside', role: 'User' }] },
  { userName: 'admin@riverview.example.org', firstName: 'Rachel', lastName: 'Rivers', memberships: [{ org: 'riverview', role: 'Administrator' }] },
  { userName: 'user@riverview.example.org', firstName: 'Ray', lastName: 'Banks', memberships: [{ org: 'riverview', role: 'User' }] },
  { userName: 'admin@hillcrest.example.org', firstName: 'Hannah', lastName: 'Hill', memberships: [{ org: 'hillcrest', role: 'Administrator' }] },
  { userName: 'admin@oakwood.example.org', firstName: 'Olivia', lastName: 'Oak', memberships: [{ org: 'oakwood', role: 'Administrator' }] },
  { userName: 'user@oakwood.example.org', firstName: 'Owen', lastName: 'Woods', memberships: [{ org: 'oakwood', role: 'User' }] },
  { userName: 'multi@example.org', firstName: 'Morgan', lastName: 'Multi', memberships: [{ org: 'lakeside', role: 'User' }, { org: 'riverview', role: 'User' }] },
  { userName: 'netadmin@example.org', firstName: 'Nina', lastName: 'Network', memberships: [{ org: 'lakeside', role: 'Administrator' }] },
];

// Each activated demo organization's Direct address and fax number (status 1: Activated).
const demoDocumentSources: { org: string; type: 'Direct' | 'Fax'; fullAddress: string }[] = [
  { org: 'lakeside', type: 'Direct', fullAddress: 'intake@lakeside.direct.example.org' },
  { org: 'lakeside', type: 'Fax', fullAddress: '5035550101' },
  { org: 'riverview', type: 'Direct', fullAddress: 'referrals@riverview.direct.example.org' },
  { org: 'riverview', type: 'Fax', fullAddress: '5035550202' },
];

// Who sends from which address, and receives what comes to it through an intake rule. Lakeside's fax number is left
// to its Administrators, so the demo shows that assignments matter; multi@example.org has nothing in Riverview (the
// "nothing assigned" Intake) and Lakeside's fax number in Lakeside.
const demoAssignments: { userName: string; org: string; fullAddress: string }[] = [
  { userName: 'user@riverview.example.org', org: 'riverview', fullAddress: 'referrals@riverview.direct.example.org' },
  { userName: 'user@lakeside.example.org', org: 'lakeside', fullAddress: 'intake@lakeside.direct.example.org' },
  { userName: 'multi@example.org', org: 'lakeside', fullAddress: '5035550101' },
];




export async function isSeeded(db: Database): Promise<boolean> {
  const rows = await db.select({ id: organizations.id }).from(organizations).where(eq(organizations.subdomain, 'lakeside'));
  return rows.length > 0;
}

// The features the demo world shows switched on for Lakeside and Riverview (off everywhere else, as
// on a new installation). Seeded with the demo messages, not in the test template, whose tests
// expect every feature off unless they turn it on.
const demoFeatures = ['IntakeCdaViewer', 'PatientExtractionAPI'] as const;

export async function seedDemoFeatures(db: Database): Promise<void> {
  const orgs = await db.select({ id: organizations.id }).from(organizations).where(inArray(organizations.subdomain, ['lakeside', 'riverview']));
  const features = await db.select({ id: featureToggles.id }).from(featureToggles).where(inArray(featureToggles.name, [...demoFeatures]));
  const rows = orgs.flatMap((o) => features.map((f) => ({ featureId: f.id, organizationId: o.id, isEnabled: true })));
  if (rows.length) await db.insert(organizationFeatures).values(rows).onConflictDoNothing();
}

// Idempotent: inserts what is missing and leaves what exists untouched.
export async function seedDemo(db: Database, opts: { demoPassword: string; env: string }): Promise<void> {
  if (opts.env === 'production') throw new Error('The demo world is not seeded in production mode.');
  const passwordHash = await hashPassword(opts.demoPassword);
  await db.transaction(async (tx) => {
    await seedReferenceData(tx);
    const orgIds: Record<string, string> = {};
    for (const [key, org] of Object.entries(demoOrganizations)) {
      await tx.insert(organizations).values(org).onConflictDoNothing({ target: organizations.subdomain });
      const [row] = await tx.select({ id: organizations.id, settings: organizations.settings }).from(organizations).where(eq(organizations.subdomain, org.subdomain));
      orgIds[key] = row!.id;
      // A demo database seeded before the back office gets the details its edit page needs; edited ones stay.
      const [specialty] = await tx.select({ id: organizationSpecialties.id }).from(organizationSpecialties).where(eq(organizationSpecialties.name, demoSpecialties[key]!));
      await tx.update(organizations).set({ organizationSpecialtyId: specialty?.id ?? null }).where(and(eq(organizations.id, row!.id), isNull(organizations.organizationSpecialtyId)));
      const profile = Object.fromEntries(profileColumns.map((c) => [c, org[c]]));
      await tx.update(organizations).set(profile).where(and(eq(organizations.id, row!.id), isNull(organizations.addressStreet)));
      // A demo database seeded before settings existed gets them; settings someone changed stay.
      if (org.settings && Object.keys(row!.settings).length === 0) await tx.update(organizations).set({ settings: org.settings }).where(eq(organizations.id, row!.id));
    }
    for (const source of demoDocumentSources) {
      await tx
        .insert(documentSources)
        .values({ organizationId: orgIds[source.org]!, type: source.type, fullAddress: source.fullAddress, status: 1 })
        .onConflictDoNothing({ target: documentSources.fullAddress });
    }
    const userIds: Record<string, string> = {};
    for (const u of demoUsers) {
      const first = u.memberships?.[0];
      await tx
        .insert(users)
        .values({
          userName: u.userName,
          email: u.userName,
          firstName: u.firstName,
          lastName: u.lastName,
          passwordHash,
          idProofed: true,
          defaultOrganizationId: first ? orgIds[first.org] : null,
        })
        .onConflictDoNothing({ target: users.userName });
      const [row] = await tx.select({ id: users.id }).from(users).where(eq(users.userName, u.userName));
      const userId = row!.id;
      userIds[u.userName] = userId;
      if (u.systemRole) await tx.insert(userSystemRoles).values({ userId, role: u.systemRole }).onConflictDoNothing();
      for (const m of u.memberships ?? []) {
        await tx.insert(memberships).values({ userId, organizationId: orgIds[m.org]!, role: m.role, primaryJobFunctionId: m.role === 'Administrator' ? 6 : 2 }).onConflictDoNothing();
      }
      await tx.insert(userPreferences).values({ userId }).onConflictDoNothing();
    }
    for (const organizationId of Object.values(orgIds)) await ensureSampleRule(tx, organizationId);
    for (const a of demoAssignments) {
      const userId = userIds[a.userName]!;
      const organizationId = orgIds[a.org]!;
      const [source] = await tx.select({ id: documentSources.id }).from(documentSources).where(eq(documentSources.fullAddress, a.fullAddress));
      await tx.insert(userDocumentSources).values({ userId, organizationId, documentSourceId: source!.id }).onConflictDoNothing();
      // What comes to the address reaches the user through a rule (the sample one where it names the address).
      const [hasRule] = await tx.select({ id: userIntakeRules.intakeRuleId }).from(userIntakeRules).where(and(eq(userIntakeRules.userId, userId), eq(userIntakeRules.organizationId, organizationId)));
      if (hasRule) continue;
      const [existing] = await tx
        .select({ id: intakeRules.id })
        .from(intakeRules)
        .where(and(eq(intakeRules.organizationId, organizationId), sql`${intakeRules.toAddresses} = array[${a.fullAddress}]::text[]`))
        .orderBy(sql`${intakeRules.name} <> ${SAMPLE_INTAKE_RULE_NAME}`, asc(intakeRules.name));
      const ruleId = existing?.id ?? (await tx.insert(intakeRules).values({ organizationId, name: `To ${displayAddress(a.fullAddress)}`, toAddresses: [a.fullAddress] }).returning({ id: intakeRules.id }))[0]!.id;
      await tx.insert(userIntakeRules).values({ userId, organizationId, intakeRuleId: ruleId }).onConflictDoNothing();
    }
    await tx.insert(networks).values({ name: 'Northwest Health Network' }).onConflictDoNothing();
    const [network] = await tx.select({ id: networks.id }).from(networks).where(eq(networks.name, 'Northwest Health Network'));
    for (const key of ['lakeside', 'riverview']) {
      await tx.insert(networkOrganizations).values({ networkId: network!.id, organizationId: orgIds[key]! }).onConflictDoNothing();
    }
    await tx.insert(networkAdministrators).values({ networkId: network!.id, userId: userIds['netadmin@example.org']! }).onConflictDoNothing();
    // The ClinicRelay brand's terms "1.0" (issue 14 §2), accepted by the users of every organization that accepted terms
    // (not Hillcrest's). A new installation without the demo world has no terms document.
    await tx.insert(eulas).values({ brandId: 'clinicrelay', version: '1.0', type: 'EULA', isActive: true, activatedAt: daysAgo(400), html: sanitizeTermsHtml(readFileSync(new URL('./terms-1.0.html', import.meta.url), 'utf8')), fileName: 'terms-1.0.html' }).onConflictDoNothing();
    const [terms] = await tx.select({ id: eulas.id }).from(eulas).where(and(eq(eulas.brandId, 'clinicrelay'), eq(eulas.version, '1.0')));
    for (const u of demoUsers) {
      const accepted = u.memberships?.find((m) => demoOrganizations[m.org]!.isAcceptedEula);
      if (!accepted) continue;
      const acceptedAt = demoOrganizations[accepted.org]!.eulaAcceptedAt ?? daysAgo(1);
      await tx.insert(eulaAcceptances).values({ eulaId: terms!.id, userId: userIds[u.userName]!, organizationId: orgIds[accepted.org]!, ip: '127.0.0.1', acceptedAt }).onConflictDoNothing();
    }
  });
}


// rename: the organization names a demo world shows instead (the peer's, db/seed/demo-peer.ts).
export const demoSignInLines = (password: string, rename: (name: string) => string = (name) => name): string[] => [
  `Demo sign-ins (password ${password}):`,
  ...demoUsers.map((u) => {
    const what = u.systemRole ?? u.memberships?.map((m) => `${m.role} of ${rename(demoOrganizations[m.org]!.name)}`).join(', ');
    return `  ${u.userName.padEnd(30)} ${what}${u.userName.startsWith('netadmin') ? ' (network administrator)' : ''}`;
  }),
];
