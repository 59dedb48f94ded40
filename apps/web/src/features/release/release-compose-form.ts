import { formatIsoDate, parseTypedDate } from '@clinicrelay/contracts/dates.ts';
import type { OrganizationSettings } from '@clinicrelay/contracts/organization-settings.ts';
import { splitAddresses, type DraftSave, type Message } from '@clinicrelay/contracts/messages.ts';
import { forwardSubject, normalizeAddress, quoteOriginal, replySubject } from './release-text.ts';

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

// What each field may hold, as the contracts bound it on save (maxLength on the inputs, so a save is never refused for length).
export const composeLimits = {
  subject: 255,
  body: 20_000,
  patientName: 35,
  streetAddress1: 35,
  streetAddress2: 35,
  city: 35,
  state: 35,
  postalCode: 10,
  telephone: 20,
} as const;

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
  return { ...values, birthDate: formatIsoDate(source?.birthDate), gender: source?.gender ?? null };
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
          // A birth date that is not a date is left out rather than refusing the whole save (the field keeps
          // its text and its error on screen): every other edit of the draft survives a reload.
          birthDate: parseTypedDate(p.birthDate) || null,
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

const sameAddress = (a: string, b: string) => (normalizeAddress(a) ?? a.toLowerCase()) === (normalizeAddress(b) ?? b.toLowerCase());

/**
 * The From chosen for the user when none is set: on a reply, the address the original arrived at;
 * otherwise the only address the user may send from. `own` are the usable From addresses.
 */
export function preselectFrom(values: ComposeValues, own: string[], arrivedAt: string[]): ComposeValues {
  if (values.fromAddress) return values;
  const arrived = own.find((address) => arrivedAt.some((to) => sameAddress(address, to)));
  const fromAddress = arrived ?? (own.length === 1 ? own[0]! : null);
  return fromAddress ? { ...values, fromAddress } : values;
}
