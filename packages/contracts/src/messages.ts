import { z } from 'zod';
import { isTelephoneNumber } from './addresses.ts';
import { deliveryStage } from './delivery.ts';
import { jsonValue, text } from './text.ts';

// User-visible texts of end-user §5 and §8 for Release, exactly as the spec words them.
export const releaseMessages = {
  fixErrorsHeading: 'Please fix the following errors before sending.',
  attachmentInvalid: "An attachment's information is invalid.",
  releaseTypeRequired: '"Release Type" is required.',
  toRequired: '"To" address is required.',
  fromRequired: '"From" address is required.',
  addressInvalid: 'This address is not valid.',
  // Not in the spec (issue 13 §2): the From is one of the organization's addresses the sender has no permission for.
  fromNotPermitted: 'You do not have permission to send from this address. Ask an administrator of your organization.',
  patientDetailsRequired: '"Patient Details" information is required.',
  patientFirstNameRequired: '"Patient First Name" is required.',
  patientLastNameRequired: '"Patient Last Name" is required.',
  patientBirthDateRequired: '"Patient Birth Date" is required.',
  patientGenderRequired: '"Patient Gender" is required.',
  patientBirthDateFuture: '"Patient Birth Date" must be equal or less than today.',
  patientBirthDateInvalid: '"Patient Birth Date" is invalid.',
  patientVisitDateInvalid: '"Patient Visit Date" is invalid.',
  patientFieldTooLong: 'Patient fields may be at most 35 characters.',
  // Not in the spec: the list's userId filter is not a user id.
  userIdInvalid: 'User is not valid.',
  // Not worded in the spec: the telephone rule of §5 "Field rules", said as the other patient fields are.
  patientTelephoneInvalid: '"Patient Telephone" is invalid. Enter 10 digits, as (999) 999-9999.',
  documentTypeRequired: (fileName: string) => `"Document Type" is required for file "${fileName}"`,
  documentDateRequired: (fileName: string) => `"Document Date" is required for file "${fileName}"`,
  documentDateFuture: 'Document Date must be equal or less than today.',
  sendSuccess: 'The message was sent successfully.',
  sendFailure: 'There was an error sending your message. Please contact support.',
  draftDeleted: 'The draft was deleted successfully.',
  messageDeleted: 'Message has been deleted',
  messageDeleting: 'Your message is being deleted',
  discardFailure: 'The message was not discarded successfully.',
  cacheSaved: 'Direct Address Cache has been saved successfully.',
  notADraft: 'Only a draft can be changed.',
  // Not worded in the spec ("confidentiality required for new and forward messages"); same style as the others.
  confidentialityRequired: (fileName: string) => `"Confidentiality" is required for file "${fileName}"`,
  deliverySummaryQueued: 'Your Delivery Summary is being generated. To view the document, go to My Intake.',
  deliverySummaryFailure: 'The system encountered an error while generating the delivery summary.',
  // Not in the spec: why a summary cannot be had yet or at all.
  deliverySummaryNotReady: 'The delivery summary is not ready yet: some recipients are still pending.',
  deliverySummaryDisabled: 'Delivery summary download is turned off for your organization.',
} as const;

// end-user §5 "Non-PHI fax", checked on the server at send with the same wording as the modal.
export const nonPhiFaxMessages = {
  toRequired: '"To" fax number is required.',
  subjectRequired: '"Subject" is required.',
  fromRequired: '"From" fax number is required.',
  attachmentMissing: 'Missing file attachment.',
} as const;

// end-user §9: a non-PHI fax's origin is the brand plus '_non-patient'. Brands arrive with the back
// office; until an organization has one, the product's own name is its brand.
export const DEFAULT_BRAND_NAME = 'ClinicRelay';
export const NON_PATIENT_ORIGIN_SUFFIX = '_non-patient';
export const nonPatientOrigin = (brandName: string) => `${brandName}${NON_PATIENT_ORIGIN_SUFFIX}`;
export const isNonPatientOrigin = (origin: string | null | undefined) => !!origin?.endsWith(NON_PATIENT_ORIGIN_SUFFIX);

// A message's toAddress is semicolon-separated (end-user §3); lists read it as toAddresses.
export const splitAddresses = (value: string | null | undefined) =>
  (value ?? '')
    .split(';')
    .map((part) => part.trim())
    .filter(Boolean);

const PATIENT_FIELD_MAX = 35;
const patientText = text().trim().max(PATIENT_FIELD_MAX, releaseMessages.patientFieldTooLong).nullish();
const isoDate = /^\d{4}-\d{2}-\d{2}$/;

// A YYYY-MM-DD date that exists on the calendar.
export const isValidIsoDate = (value: string) => {
  if (!isoDate.test(value)) return false;
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value;
};

export const patientIdentifier = z.object({ root: text().trim().max(128).nullish(), id: text().trim().max(128).nullish() });

// The Patient of end-user §3. Format rules apply on every save; the "required" rules at send. On a received
// message (Intake), PUT /api/messages/{id}/patient applies §5's Intake rules on save: first and last name
// required unless the organization has the non-patient export, birth date not after today, 409 when the
// organization only prints. Fields left out keep their stored value; null clears one.
export const patient = z.object({
  patientId: text().trim().max(128).nullish(),
  patientIds: z.array(patientIdentifier).max(20).default([]),
  firstName: patientText,
  middleName: patientText,
  lastName: patientText,
  birthDate: text()
    .trim()
    .max(10)
    .nullish()
    .refine((v) => !v || isValidIsoDate(v), releaseMessages.patientBirthDateInvalid),
  gender: z.enum(['M', 'F', 'UN']).nullish(),
  streetAddress1: patientText,
  streetAddress2: patientText,
  city: patientText,
  state: text().trim().max(35).nullish(),
  postalCode: text().trim().max(10).nullish(),
  country: text().trim().max(35).nullish(),
  telephone: text().trim().max(20).nullish(),
  visitId: text().trim().max(64).nullish(),
  visitDate: text().trim().max(10).nullish().refine((v) => !v || isValidIsoDate(v), releaseMessages.patientVisitDateInvalid),
  integrationMeta: z.record(text(), text().max(256).nullable()).nullish(),
});
export type Patient = z.infer<typeof patient>;

// The body of PUT /api/messages/{id}/patient: a typed telephone must be one (§5 "Field rules"). Only what a user saves
// is checked: a telephone that came with a received message is shown as it came.
export const patientSave = patient.extend({
  telephone: text()
    .trim()
    .max(20, releaseMessages.patientTelephoneInvalid)
    .nullish()
    .refine((v) => !v || isTelephoneNumber(v), releaseMessages.patientTelephoneInvalid),
});

export const faxProperties = z.object({
  includeCoverPage: z.boolean(),
  includeMessageBody: z.boolean(),
  includeAttachmentDescriptions: z.boolean(),
  faxPageCount: z.number().int().nullable(),
});

export const attachmentMeta = z.object({
  documentType: text().trim().max(128).nullish(),
  documentDate: text().trim().max(10).nullish(),
  documentDateType: z.enum(['today', 'message', 'selected']).nullish(),
  confidentiality: z.enum(['Normal', 'Restricted', 'Very Restricted']).nullish(),
  documentDescription: text().max(255).nullish(),
  patient: z.record(text(), jsonValue()).nullish(),
});

export const attachmentSummary = z.object({
  id: text(),
  fileName: text(),
  mimeType: text(),
  sizeInBytes: z.number().int(),
  isPreviewAvailable: z.boolean(),
  previewAvailable: z.enum(['Processing', 'Available', 'Failed', 'NotApplicable']),
  transformStatus: z.enum(['None', 'Pending', 'Failed']),
  isSelected: z.boolean(),
  isRestorable: z.boolean(),
  uploadProcessId: text().nullable(),
  attachmentMeta: attachmentMeta.nullable(),
  integrationMeta: z.record(text(), jsonValue()).nullable(),
});

export const delivery = z.object({
  recipient: text(),
  channel: z.enum(['Direct', 'Fax']),
  status: z.enum(['Pending', 'Delivered', 'Failed']),
  reason: text().nullable(),
  updatedAt: text(),
  deliveredAt: text().nullable(),
  // The status as one line to show as is ("Delivered (sandbox: no real fax was sent)"; delivery.ts
  // deliveryStatusDetail), and whether the delivery was only simulated (the sandbox fax provider).
  statusDetail: text(),
  isSimulated: z.boolean(),
  // Direct over SMTP (issue 12 §4): queued → sent → processed → dispatched, or failed with the reason, oldest first.
  timeline: z.array(z.object({ stage: deliveryStage, at: text(), detail: text().nullable() })),
});

// The Message of end-user §3 as GET /api/messages/{id} returns it.
export const message = z.object({
  id: text(),
  subject: text(),
  fromAddress: text().nullable(),
  toAddress: text(),
  body: text(),
  comments: text().nullable(),
  messageDate: text().nullable(),
  systemReceivedDate: text().nullable(),
  createdDate: text(),
  updatedDate: text(),
  isDraft: z.boolean(),
  isProcessed: z.boolean(),
  isUrgent: z.boolean(),
  origin: text().nullable(),
  status: text(),
  processedType: text().nullable(),
  sourceType: text().nullable(),
  patient: patient.nullable(),
  patientName: text().nullable(),
  attachments: z.array(attachmentSummary),
  conversation: z.object({ conversationId: text(), type: text(), conversationStatus: text() }).nullable(),
  classification: z.object({ code: text() }).nullable(),
  reasonForDisclosure: text().nullable(),
  originalObjectId: text().nullable(),
  releaseTypeId: text().nullable(),
  conversion: z.enum(['Pdf', 'Cda']).nullable(),
  attachments2PDF: z.boolean(),
  attachments2CDA: z.boolean(),
  isReadyForDeliverySummary: z.boolean(),
  properties: faxProperties.nullable(),
  trackFaxResponses: z.boolean(),
  deliveries: z.array(delivery),
});
export type Message = z.infer<typeof message>;

// PUT /api/messages and PUT /api/messages/{id}: save a draft. Everything optional: a draft may be
// incomplete; the send rules are checked at send.
export const draftSave = z.object({
  subject: text('Subject').max(255).optional(),
  fromAddress: text('"From" address').trim().max(256).nullish(),
  toAddress: text('"To" address').max(4000).optional(),
  body: text('Message').max(20_000).optional(),
  comments: text('Comments').max(2000).nullish(),
  isUrgent: z.boolean().optional(),
  releaseTypeId: text().uuid().nullish(),
  classification: z.object({ code: text().max(64) }).nullish(),
  reasonForDisclosure: text('Reason for disclosure').max(255).nullish(),
  conversion: z.enum(['Pdf', 'Cda']).nullish(),
  properties: faxProperties.partial().nullish(),
  trackFaxResponses: z.boolean().optional(),
  originalObjectId: text().uuid().nullish(),
  patient: patient.nullish(),
  // On a new draft: attachments of the original message (originalObjectId) to carry over, as a forward does.
  attachments: z.array(z.object({ id: text().uuid() })).max(100).optional(),
  // On a new draft: a non-PHI fax (no patient); the server sets origin to the brand plus '_non-patient'.
  isNonPatient: z.boolean().optional(),
  // Not in the spec: true when this save is the first step of a send (compose's Send, the non-PHI fax modal).
  // A draft this call creates is discarded if that send is refused, unless a file was attached to it or it
  // was saved again without the flag: a draft exists only when the user saved it or attached a file.
  beforeSend: z.boolean().optional(),
});
export type DraftSave = z.infer<typeof draftSave>;

export const messageListQuery = z.object({
  pageStart: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(30),
  isDraft: z.enum(['true', 'false']).transform((v) => v === 'true').optional(),
  search: text('Search').trim().max(200).optional(),
  startDate: text().trim().max(10).optional().refine((v) => !v || isValidIsoDate(v), 'Start date is invalid.'),
  endDate: text().trim().max(10).optional().refine((v) => !v || isValidIsoDate(v), 'End date is invalid.'),
  // Decision (the spec names userId only): the messages that user created, for Users and Administrators alike, since both
  // already see the whole organization's Release; an id with none there (another organization's user) lists nothing.
  userId: z.preprocess((v) => (v === '' ? undefined : v), text('User').uuid(releaseMessages.userIdInvalid).optional()),
});

export const messageListItem = message.pick({
  id: true,
  subject: true,
  fromAddress: true,
  toAddress: true,
  createdDate: true,
  updatedDate: true,
  messageDate: true,
  isDraft: true,
  isUrgent: true,
  status: true,
  patientName: true,
  deliveries: true,
}).extend({ toAddresses: z.array(text()), attachmentCount: z.number().int() });
export const messageList = z.object({ items: z.array(messageListItem), totalCount: z.number().int() });

export const idParams = z.object({ id: text().uuid() });

// Not shown in the spec: the organization's From addresses, release and document types, the cache.
// canSend (not in the spec, issue 13 §2): the caller may send from it (assigned to them, global, or they are an
// Administrator); compose offers exactly these as From, Intake and Triage list them all.
export const documentSource = z.object({
  id: text(),
  address: z.object({ fullAddress: text(), type: z.enum(['Direct', 'Fax']) }),
  status: z.number().int(),
  canSend: z.boolean().default(true),
});
export const releaseType = z.object({
  id: text(),
  name: text(),
  organizationId: text().nullable(),
  sendType: z.enum(['Direct', 'Fax', 'Any']),
  originAddressId: text().nullable(),
  destinationAddress: text().nullable(),
  classificationCode: text().nullable(),
  trackFaxResponses: z.boolean(),
});
export const documentType = z.object({ id: text(), name: text(), source: text() });
export const classification = z.object({ code: text(), name: text() });
export const cachedAddress = z.object({ address: text(), useCount: z.number().int(), lastUsedAt: text() });
export const addressCacheUpdate = z.object({ addresses: z.array(text().trim().toLowerCase().max(256)).max(1000) });

// Message classifications offered when releasing (codes not shown in the spec; these name why a
// document is disclosed, which receiving clinics triage by).
export const classifications = [
  { code: 'REFERRAL', name: 'Referral' },
  { code: 'CONSULT', name: 'Consultation' },
  { code: 'RECORDS_REQUEST', name: 'Records request response' },
  { code: 'RESULTS', name: 'Results' },
  { code: 'CARE_TRANSITION', name: 'Transition of care' },
  { code: 'OTHER', name: 'Other' },
] as const;
