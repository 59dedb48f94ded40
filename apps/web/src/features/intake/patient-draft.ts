import { isTelephoneNumber } from '@clinicrelay/contracts/addresses.ts';
import { formatIsoDate, parseTypedDate, todayIsoDate } from '@clinicrelay/contracts/dates.ts';
import { releaseMessages, type Patient } from '@clinicrelay/contracts/messages.ts';
import type { OrganizationSettings } from '@clinicrelay/contracts/organization-settings.ts';
import type { PatientDraft } from './patient-extraction.ts';

// The Intake patient form's rules (end-user §5 "Patient and document rules on save", Intake strategy).

export type PatientField = keyof PatientDraft;
export type PatientErrors = Partial<Record<PatientField, string>>;

export const draftOf = (patient: Patient | null): PatientDraft => ({
  firstName: patient?.firstName ?? '',
  middleName: patient?.middleName ?? '',
  lastName: patient?.lastName ?? '',
  birthDate: formatIsoDate(patient?.birthDate),
  gender: patient?.gender ?? '',
  telephone: patient?.telephone ?? '',
  streetAddress1: patient?.streetAddress1 ?? '',
  city: patient?.city ?? '',
  state: patient?.state ?? '',
  postalCode: patient?.postalCode ?? '',
  visitId: patient?.visitId ?? '',
  visitDate: formatIsoDate(patient?.visitDate),
});

// Not in the spec: a typed document date that is not a date (the attachment contract's wording).
export const DOCUMENT_DATE_INVALID = 'Document Date is invalid.';

export interface DateTexts {
  invalid: string;
  /** Omitted: a future date is allowed. */
  future?: string;
}
export const birthDateTexts: DateTexts = { invalid: releaseMessages.patientBirthDateInvalid, future: releaseMessages.patientBirthDateFuture };
export const visitDateTexts: DateTexts = { invalid: releaseMessages.patientVisitDateInvalid };
export const documentDateTexts: DateTexts = { invalid: DOCUMENT_DATE_INVALID, future: releaseMessages.documentDateFuture };

export type CheckedDate = { iso: string; shown: string; error?: undefined } | { iso?: undefined; shown?: undefined; error: string };

/**
 * A typed date (end-user §5 formats and two-digit-year rule): its YYYY-MM-DD value ('' when blank) and how
 * the field shows it (MM/DD/YYYY), or the error to show under the field.
 */
export function checkTypedDate(typed: string, texts: DateTexts, today: string = todayIsoDate()): CheckedDate {
  const iso = parseTypedDate(typed, today);
  if (iso === null) return { error: texts.invalid };
  if (texts.future && iso > today) return { error: texts.future };
  return { iso, shown: formatIsoDate(iso) };
}

/**
 * Intake with patient export needs the patient's first and last name; birth date and gender are never
 * required in Intake (end-user §5). Print export mode exports nothing; a non-patient export needs no patient.
 */
export const patientNamesRequired = (settings: OrganizationSettings | undefined) =>
  settings !== undefined && settings.exportMode === 'Export' && !settings.nonPatientExport;

/** Every rule of the form at save; an empty result means it may be saved. */
export function validatePatient(draft: PatientDraft, options: { namesRequired: boolean; today?: string }): PatientErrors {
  const errors: PatientErrors = {};
  if (options.namesRequired && !draft.firstName.trim()) errors.firstName = releaseMessages.patientFirstNameRequired;
  if (options.namesRequired && !draft.lastName.trim()) errors.lastName = releaseMessages.patientLastNameRequired;
  const birth = checkTypedDate(draft.birthDate, birthDateTexts, options.today);
  if (birth.error) errors.birthDate = birth.error;
  const visit = checkTypedDate(draft.visitDate, visitDateTexts, options.today);
  if (visit.error) errors.visitDate = visit.error;
  // The server's rule (contracts patientSave), so "12" is refused before the save.
  if (draft.telephone.trim() && !isTelephoneNumber(draft.telephone)) errors.telephone = releaseMessages.patientTelephoneInvalid;
  return errors;
}

const orNull = (value: string) => value.trim() || null;
const isoOrNull = (typed: string) => parseTypedDate(typed) || null;

/** The body of PUT /api/messages/{id}/patient: the form's fields over what the message had (ids, integration meta). */
export function toPatient(draft: PatientDraft, saved: Patient | null): Patient {
  return {
    ...(saved ?? { patientIds: [] }),
    firstName: orNull(draft.firstName),
    middleName: orNull(draft.middleName),
    lastName: orNull(draft.lastName),
    birthDate: isoOrNull(draft.birthDate),
    gender: (draft.gender || null) as Patient['gender'],
    telephone: orNull(draft.telephone),
    streetAddress1: orNull(draft.streetAddress1),
    city: orNull(draft.city),
    state: orNull(draft.state),
    postalCode: orNull(draft.postalCode),
    visitId: orNull(draft.visitId),
    visitDate: isoOrNull(draft.visitDate),
  };
}

const FIELDS = new Set<string>(['firstName', 'middleName', 'lastName', 'birthDate', 'gender', 'telephone', 'streetAddress1', 'city', 'state', 'postalCode', 'visitId', 'visitDate']);

/** The server's modelState split into the form's fields ("patient.birthDate" or "birthDate") and the rest. */
export function serverErrors(modelState: Record<string, string[]>): { fields: PatientErrors; other: string[] } {
  const fields: PatientErrors = {};
  const other: string[] = [];
  for (const [key, texts] of Object.entries(modelState)) {
    const field = key.split('.').at(-1) ?? key;
    if (FIELDS.has(field) && texts[0]) fields[field as PatientField] = texts[0];
    else other.push(...texts);
  }
  return { fields, other };
}
