import { and, eq, isNull } from 'drizzle-orm';
import { featureNames } from '@clinicrelay/contracts/session.ts';
import type { DbOrTx } from '../client.ts';
import { featureToggles } from '../schema/features.ts';
import { documentTypes, releaseTypes } from '../schema/messages.ts';
import { jobFunctions } from '../schema/users.ts';

// Reference data every installation needs, demo world or not: an organization made in the back office must be able
// to add users (job functions) and send (release and document types) at once. Idempotent: run at every start.

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

const jobFunctionNames = ['Physician', 'Nurse', 'Medical Assistant', 'Front Desk', 'Health Information Management', 'Practice Manager', 'Other'];

const featureDescriptions: Record<(typeof featureNames)[number], string> = {
  PatientExtractionAPI: 'Extract patient details from an attachment.',
  IntakeCdaViewer: 'CDA Explorer tab in the Intake document viewer.',
  AutomatedCarePlans: 'Track Fax Responses on fax destinations.',
  WestFaxInterface: 'WestFax fax provider accounts.',
  UseOptimizedIntake: 'Use the optimized Intake list call.',
  apiCaptureEnabled: 'API capture of organizations in the back office.',
};

// The end-user features an organization's own setting switches (issue 29 §5); the back-office ones are global.
const organizationFeatureNames = new Set<string>(['PatientExtractionAPI', 'IntakeCdaViewer', 'AutomatedCarePlans', 'UseOptimizedIntake']);

export async function seedReferenceData(db: DbOrTx): Promise<void> {
  await db.insert(jobFunctions).values(jobFunctionNames.map((name, i) => ({ id: i + 1, name }))).onConflictDoNothing();
  await db
    .insert(featureToggles)
    .values(featureNames.map((name) => ({ name, description: featureDescriptions[name], isEnabled: false, isOrganizationFeature: organizationFeatureNames.has(name) })))
    .onConflictDoNothing();
  for (const rt of systemReleaseTypes) {
    const exists = await db.select({ id: releaseTypes.id }).from(releaseTypes).where(and(isNull(releaseTypes.organizationId), eq(releaseTypes.name, rt.name)));
    if (exists.length === 0) await db.insert(releaseTypes).values(rt);
  }
  for (const dt of systemDocumentTypes) {
    const exists = await db.select({ id: documentTypes.id }).from(documentTypes).where(and(isNull(documentTypes.organizationId), eq(documentTypes.name, dt.name)));
    if (exists.length === 0) await db.insert(documentTypes).values({ ...dt, source: 'System' });
  }
}
