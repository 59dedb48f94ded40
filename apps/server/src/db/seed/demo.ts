import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { Database } from '../client.ts';
import { documentSources } from '../schema/document-sources.ts';
import { featureToggles, organizationFeatures } from '../schema/features.ts';
import { userDocumentSources } from '../schema/intake.ts';
import { documentTypes, releaseTypes } from '../schema/messages.ts';
import { networkAdministrators, networkOrganizations, networks } from '../schema/networks.ts';
import { organizations } from '../schema/organizations.ts';
import { jobFunctions, memberships, userPreferences, userSystemRoles, users } from '../schema/users.ts';
import { hashPassword } from '../../platform/auth/passwords.ts';
import { featureNames } from '@clinicrelay/contracts/session.ts';

type OrgSeed = Omit<typeof organizations.$inferInsert, 'id'>;
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
  lakeside: { name: 'Lakeside Family Medicine', subdomain: 'lakeside', isActivated: true, isAcceptedEula: true, eulaAcceptedAt: daysAgo(200), isIdProofed: true, idProofedAttemptDate: daysAgo(200), planId: 'professional', settings: { deliverySummaryEnableDownload: true, exportMode: 'Export', exportOption: 'PatientFolder', exportVisitDirectory: true } },
  // Riverview suppresses the fax cover page, so its fax defaults differ visibly from Lakeside's; it exports
  // into one folder (visit fields disabled). No demo organization is in print export mode: the Intake e2e
  // journey has Riverview's user set a document type, which print mode forbids (component tests cover it).
  riverview: { name: 'Riverview Cardiology', subdomain: 'riverview', isActivated: true, isAcceptedEula: true, eulaAcceptedAt: daysAgo(150), isIdProofed: true, idProofedAttemptDate: daysAgo(150), planId: 'professional', settings: { deliverySummaryEnableDownload: true, suppressCoverPage: true, exportMode: 'Export', exportOption: 'SingleFolder' } },
  hillcrest: { name: 'Hillcrest Pediatrics', subdomain: 'hillcrest', isActivated: false, isAcceptedEula: false, isIdProofed: false, planId: 'professional' },
  oakwood: { name: 'Oakwood Clinic', subdomain: 'oakwood', isActivated: true, isAcceptedEula: true, eulaAcceptedAt: daysAgo(400), isIdProofed: true, idProofedAttemptDate: daysAgo(400), cancelledAt: daysAgo(20), subscriptionReference: 'SUB-OAKWOOD-2025-0042', planId: 'professional' },
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

// Who receives which address in Intake. Lakeside's fax number is left to its Administrators, so the demo
// shows that assignments matter; multi@example.org has nothing in Riverview (the "nothing assigned" Intake)
// and Lakeside's fax number in Lakeside.
const demoAssignments: { userName: string; org: string; fullAddress: string }[] = [
  { userName: 'user@riverview.example.org', org: 'riverview', fullAddress: 'referrals@riverview.direct.example.org' },
  { userName: 'user@lakeside.example.org', org: 'lakeside', fullAddress: 'intake@lakeside.direct.example.org' },
  { userName: 'multi@example.org', org: 'lakeside', fullAddress: '5035550101' },
];

// System release types (no organization) offered to every organization.
const systemReleaseTypes: { name: string; sendType: 'Direct' | 'Fax' | 'Any'; classificationCode: string }[] = [
  { name: 'Referral', sendType: 'Any', classificationCode: 'REFERRAL' },
  { name: 'Consultation report', sendType: 'Any', classificationCode: 'CONSULT' },
  { name: 'Records request response', sendType: 'Any', classificationCode: 'RECORDS_REQUEST' },
  { name: 'Lab results', sendType: 'Any', classificationCode: 'RESULTS' },
  { name: 'Transition of care', sendType: 'Direct', classificationCode: 'CARE_TRANSITION' },
];

// System document types with the LOINC code a CDA of that type carries.
const systemDocumentTypes: { name: string; loincCode: string }[] = [
  { name: 'Referral Letter', loincCode: '57133-1' },
  { name: 'Consultation Note', loincCode: '11488-4' },
  { name: 'Discharge Summary', loincCode: '18842-5' },
  { name: 'History and Physical', loincCode: '34117-2' },
  { name: 'Laboratory Report', loincCode: '11502-2' },
  { name: 'Progress Note', loincCode: '11506-3' },
  { name: 'Imaging Report', loincCode: '18748-4' },
  { name: 'Medication List', loincCode: '10160-0' },
  { name: 'Other', loincCode: '34133-9' },
];

const demoJobFunctions = ['Physician', 'Nurse', 'Medical Assistant', 'Front Desk', 'Health Information Management', 'Practice Manager', 'Other'];

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
    await tx.insert(jobFunctions).values(demoJobFunctions.map((name, i) => ({ id: i + 1, name }))).onConflictDoNothing();
    await tx.insert(featureToggles).values(featureNames.map((name) => ({ name, description: featureDescriptions[name], isEnabled: false }))).onConflictDoNothing();
    for (const rt of systemReleaseTypes) {
      const exists = await tx.select({ id: releaseTypes.id }).from(releaseTypes).where(and(isNull(releaseTypes.organizationId), eq(releaseTypes.name, rt.name)));
      if (exists.length === 0) await tx.insert(releaseTypes).values(rt);
    }
    for (const dt of systemDocumentTypes) {
      const exists = await tx.select({ id: documentTypes.id }).from(documentTypes).where(and(isNull(documentTypes.organizationId), eq(documentTypes.name, dt.name)));
      if (exists.length === 0) await tx.insert(documentTypes).values({ ...dt, source: 'System' });
    }
    const orgIds: Record<string, string> = {};
    for (const [key, org] of Object.entries(demoOrganizations)) {
      await tx.insert(organizations).values(org).onConflictDoNothing({ target: organizations.subdomain });
      const [row] = await tx.select({ id: organizations.id, settings: organizations.settings }).from(organizations).where(eq(organizations.subdomain, org.subdomain));
      orgIds[key] = row!.id;
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
    for (const a of demoAssignments) {
      const [source] = await tx.select({ id: documentSources.id }).from(documentSources).where(eq(documentSources.fullAddress, a.fullAddress));
      await tx
        .insert(userDocumentSources)
        .values({ userId: userIds[a.userName]!, organizationId: orgIds[a.org]!, documentSourceId: source!.id })
        .onConflictDoNothing();
    }
    await tx.insert(networks).values({ name: 'Northwest Health Network' }).onConflictDoNothing({ target: networks.name });
    const [network] = await tx.select({ id: networks.id }).from(networks).where(eq(networks.name, 'Northwest Health Network'));
    for (const key of ['lakeside', 'riverview']) {
      await tx.insert(networkOrganizations).values({ networkId: network!.id, organizationId: orgIds[key]! }).onConflictDoNothing();
    }
    await tx.insert(networkAdministrators).values({ networkId: network!.id, userId: userIds['netadmin@example.org']! }).onConflictDoNothing();
  });
}

const featureDescriptions: Record<(typeof featureNames)[number], string> = {
  PatientExtractionAPI: 'Extract patient details from an attachment.',
  IntakeCdaViewer: 'CDA Explorer tab in the Intake document viewer.',
  AutomatedCarePlans: 'Track Fax Responses on fax destinations.',
  WestFaxInterface: 'WestFax fax provider accounts.',
  UseOptimizedIntake: 'Use the optimized Intake list call.',
};

export const demoSignInLines = (password: string): string[] => [
  `Demo sign-ins (password ${password}):`,
  ...demoUsers.map((u) => {
    const what = u.systemRole ?? u.memberships?.map((m) => `${m.role} of ${demoOrganizations[m.org]!.name}`).join(', ');
    return `  ${u.userName.padEnd(30)} ${what}${u.userName.startsWith('netadmin') ? ' (network administrator)' : ''}`;
  }),
];
