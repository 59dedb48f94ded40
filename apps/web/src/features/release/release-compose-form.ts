import { z } from 'zod';
import type { OrganizationSettings } from '@clinicrelay/contracts/organization-settings.ts';
import { patient, releaseMessages, splitAddresses, type DraftSave, type Message } from '@clinicrelay/contracts/messages.ts';
import { forwardSubject, fromIsoDate, quoteOriginal, replySubject, todayIso, toIsoDate } from './release-text.ts';

export type ReleaseComposeMode = 'new' | 'draft' | 'forward' | 'forwardDraft' | 'reply' | 'replyDraft';
export type Conversion = 'Original' | 'Pdf' | 'Cda';

const patientFields = ['firstName', 'middleName', 'lastName', 'streetAddress1', 'streetAddress2', 'city', 'state', 'postalCode', 'telephone'] as const;
type PatientField = (typeof patientFields)[number];

// The compose form's values: text inputs hold '' rather than null, the birth date is MM/DD/YYYY.
export interface ComposeValues {
  to: string[];
  fromAddress: string | null;
  releaseTypeId: string | null;
  classificationCode: string | null;
  subject: string;
  body: string;
  isUrgent: boolean;
  conversion: Conversion;
  includeCoverPage: boolean;
  includeMessageBody: boolean;
  includeAttachmentDescriptions: boolean;
  trackFaxResponses: boolean;
  patient: Record<PatientField, string> & { birthDate: string; gender: string | null };
}

// Format rules of end-user §5 "Patient and document rules on save", with the contracts' own checks.
const patientForm = z.object({
  firstName: patient.shape.firstName,
  middleName: patient.shape.middleName,
  lastName: patient.shape.lastName,
  streetAddress1: patient.shape.streetAddress1,
  streetAddress2: patient.shape.streetAddress2,
  city: patient.shape.city,
  state: z.string().trim().max(35, releaseMessages.patientFieldTooLong),
  postalCode: z.string().trim().max(35, releaseMessages.patientFieldTooLong),
  telephone: z.string().trim().max(35, releaseMessages.patientFieldTooLong),
  gender: patient.shape.gender,
  birthDate: z
    .string()
    .refine((value) => toIsoDate(value) !== null, releaseMessages.patientBirthDateInvalid)
    .refine((value) => (toIsoDate(value) ?? '') <= todayIso(), releaseMessages.patientBirthDateFuture),
});

export const composeSchema = z.object({
  subject: z.string().max(255, 'Subject may be at most 255 characters.'),
  body: z.string().max(20_000, 'Body may be at most 20000 characters.'),
  patient: patientForm,
});

const text = (value: string | null | undefined) => value ?? '';
const orNull = (value: string) => (value.trim() === '' ? null : value.trim());

export type FaxDefaults = Pick<ComposeValues, 'includeCoverPage' | 'includeMessageBody' | 'includeAttachmentDescriptions'>;

/** A new message's fax options: on unless the organization suppresses them (end-user §9); all on without settings. */
export function faxDefaults(settings: OrganizationSettings | undefined): FaxDefaults {
  return {
    includeCoverPage: !(settings?.suppressCoverPage ?? false),
    includeMessageBody: !(settings?.suppressMessageBody ?? false),
    includeAttachmentDescriptions: !(settings?.suppressAttachmentDescriptions ?? false),
  };
}

export function blankValues(releaseTypeId: string | null, fax: FaxDefaults = faxDefaults(undefined)): ComposeValues {
  return {
    to: [],
    fromAddress: null,
    releaseTypeId,
    classificationCode: null,
    subject: '',
    body: '',
    isUrgent: false,
    conversion: 'Original',
    ...fax,
    trackFaxResponses: false,
    patient: patientValues(null),
  };
}

function patientValues(source: Message['patient']): ComposeValues['patient'] {
  const values = Object.fromEntries(patientFields.map((field) => [field, text(source?.[field])])) as Record<PatientField, string>;
  return { ...values, birthDate: fromIsoDate(source?.birthDate), gender: source?.gender ?? null };
}

/** The values of a saved draft. */
export function draftValues(draft: Message): ComposeValues {
  return {
    to: splitAddresses(draft.toAddress),
    fromAddress: draft.fromAddress,
    releaseTypeId: draft.releaseTypeId,
    classificationCode: draft.classification?.code ?? null,
    subject: draft.subject,
    body: draft.body,
    isUrgent: draft.isUrgent,
    conversion: draft.conversion ?? 'Original',
    includeCoverPage: draft.properties?.includeCoverPage ?? true,
    includeMessageBody: draft.properties?.includeMessageBody ?? true,
    includeAttachmentDescriptions: draft.properties?.includeAttachmentDescriptions ?? false,
    trackFaxResponses: draft.trackFaxResponses,
    patient: patientValues(draft.patient),
  };
}

/** Forward: 'FW: ' subject, the original quoted, same patient; the recipients are chosen anew. */
export function forwardValues(original: Message, fax?: FaxDefaults): ComposeValues {
  return {
    ...blankValues(original.releaseTypeId, fax),
    classificationCode: original.classification?.code ?? null,
    subject: forwardSubject(original.subject),
    body: quoteOriginal(original),
    patient: patientValues(original.patient),
  };
}

/** Reply: 'RE: ' subject (FW: stripped), back to the original's sender, the original quoted. */
export function replyValues(original: Message, fax?: FaxDefaults): ComposeValues {
  return {
    ...blankValues(null, fax),
    to: original.fromAddress ? [original.fromAddress] : [],
    classificationCode: original.classification?.code ?? null,
    subject: replySubject(original.subject),
    body: quoteOriginal(original),
    patient: patientValues(original.patient),
  };
}

/** The PUT body; the patient is left out entirely while every patient field is empty. */
export function toDraftSave(values: ComposeValues, options: { isReply: boolean; hasFax: boolean; canTrack: boolean; originalObjectId: string | null }): DraftSave {
  const p = values.patient;
  const hasPatient = Object.values(p).some((value) => value !== null && value.trim() !== '');
  return {
    subject: values.subject,
    fromAddress: values.fromAddress,
    toAddress: values.to.join(';'),
    body: values.body,
    isUrgent: values.isUrgent,
    ...(options.isReply ? {} : { releaseTypeId: values.releaseTypeId }),
    classification: values.classificationCode ? { code: values.classificationCode } : null,
    conversion: values.conversion === 'Original' ? null : values.conversion,
    properties: {
      includeCoverPage: values.includeCoverPage,
      includeMessageBody: values.includeMessageBody,
      includeAttachmentDescriptions: values.includeAttachmentDescriptions,
    },
    trackFaxResponses: options.hasFax && options.canTrack && values.trackFaxResponses,
    ...(options.originalObjectId ? { originalObjectId: options.originalObjectId } : {}),
    patient: hasPatient
      ? {
          patientIds: [],
          firstName: orNull(p.firstName),
          middleName: orNull(p.middleName),
          lastName: orNull(p.lastName),
          birthDate: toIsoDate(p.birthDate) || null,
          gender: (p.gender || null) as 'M' | 'F' | 'UN' | null,
          streetAddress1: orNull(p.streetAddress1),
          streetAddress2: orNull(p.streetAddress2),
          city: orNull(p.city),
          state: orNull(p.state),
          postalCode: orNull(p.postalCode),
          telephone: orNull(p.telephone),
        }
      : null,
  };
}
