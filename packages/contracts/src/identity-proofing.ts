import { z } from 'zod';
import { directoryStateCodes } from './directory.ts';
import { text } from './text.ts';

// end-user §3 "Identity", §4 "Onboarding", §5 "Identity form". The end-user calls are not named by the spec:
// POST /api/identityproofing/identity, POST /api/identityproofing/answers, POST /api/identityproofing/document and
// GET /api/identityproofing (the provider's name and the caller's latest decision), Administrators only.

export const identityMessages = {
  firstNameRequired: 'First Name is required.',
  lastNameRequired: 'Last Name is required.',
  dateOfBirthRequired: 'Date of Birth is required.',
  addressRequired: 'Address is required.',
  cityRequired: 'City is required.',
  stateRequired: 'State is required.',
  zipRequired: 'Zip is required.',
  ssnFormat: 'Please enter your SSN in one of the following formats: xxx-xx-xxxx or xxxxxxxxx',
  // Not in the spec: the wording follows the SSN sentence above.
  phoneFormat: 'Please enter your phone number in the following format: (xxx) xxx-xxxx',
  dateOfBirthInvalid: 'Please enter a valid Date of Birth.',
  stateInvalid: 'Please choose a state from the list.',
  answersRequired: 'Please answer every question.',
  quizExpired: 'This quiz is no longer open. Please start the identity verification again.',
  documentRequired: 'Please choose a file.',
  documentType: 'Please choose an image (PNG, JPEG, GIF or TIFF) or a PDF file.',
  documentTooLarge: 'The file is too large. The limit is 10 MB.',
  documentSubmitted: 'Thank you. Your identification has been submitted for review.',
  alreadyProofed: 'Your organization is already ID-proofed.',
} as const;

// Identification uploads: one image or PDF of a photo ID, checked by content.
export const MAX_ID_DOCUMENT_BYTES = 10 * 1024 * 1024;
export const ID_DOCUMENT_ACCEPT = 'image/png,image/jpeg,image/gif,image/tiff,application/pdf';

const SSN = /^(\d{3}-\d{2}-\d{4}|\d{9})$/;
// (ddd) ddd-dddd as the form masks it; ten bare digits are accepted from API clients.
const PHONE = /^(\(\d{3}\) \d{3}-\d{4}|\d{10})$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

const required = (label: string, message: string, max = 255) => text(label).trim().min(1, message).max(max);
const optional = (label: string, max = 255) => text(label).trim().max(max).optional().nullable();

const isPastDate = (value: string) => {
  if (!ISO_DATE.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value) && date.getTime() < Date.now() && date.getUTCFullYear() >= 1900;
};

export const identityAddress = z.object({
  addressLine: required('Address', identityMessages.addressRequired),
  addressUnit: optional('Unit'),
  city: required('City', identityMessages.cityRequired),
  state: text('State')
    .trim()
    .min(1, identityMessages.stateRequired)
    .max(2, identityMessages.stateInvalid)
    .transform((s) => s.toUpperCase())
    .refine((s) => (directoryStateCodes as readonly string[]).includes(s), identityMessages.stateInvalid),
  zip: required('Zip', identityMessages.zipRequired, 10),
});
export type IdentityAddress = z.infer<typeof identityAddress>;

// A missing field reads as its required message, like an empty one.
const requiredMessage = (message: string) => ({ error: (issue: { input?: unknown }) => (issue.input === undefined || issue.input === null ? message : undefined) });

export const identityRequest = z.object({
  firstName: required('First Name', identityMessages.firstNameRequired),
  lastName: required('Last Name', identityMessages.lastNameRequired),
  dateOfBirth: text('Date of Birth')
    .trim()
    .min(1, identityMessages.dateOfBirthRequired)
    .max(10, identityMessages.dateOfBirthInvalid)
    .refine((s) => s === '' || isPastDate(s), identityMessages.dateOfBirthInvalid),
  // Optional; empty means not given.
  ssn: text('SSN')
    .trim()
    .max(11, identityMessages.ssnFormat)
    .refine((s) => s === '' || SSN.test(s), identityMessages.ssnFormat)
    .optional()
    .nullable(),
  // Not named required by §5: optional, but formatted when given.
  phoneNumber: text('Phone Number')
    .trim()
    .max(14, identityMessages.phoneFormat)
    .refine((s) => s === '' || PHONE.test(s), identityMessages.phoneFormat)
    .optional()
    .nullable(),
  currentAddress: z.object(identityAddress.shape, requiredMessage(identityMessages.addressRequired)),
  // Optional: null or absent when the applicant has lived at the current address long enough.
  formerAddress: identityAddress.optional().nullable(),
});
export type IdentityRequest = z.input<typeof identityRequest>;

export const quizQuestion = z.object({
  id: text(),
  text: text(),
  choices: z.array(z.object({ id: text(), text: text() })),
});
export type QuizQuestion = z.infer<typeof quizQuestion>;

export const quizAnswers = z.object({
  quizId: text('Quiz').trim().min(1).max(100),
  answers: z
    .array(z.object({ questionId: text().max(100), choiceId: text().max(100) }), requiredMessage(identityMessages.answersRequired))
    .min(1, identityMessages.answersRequired)
    .max(10),
});
export type QuizAnswers = z.infer<typeof quizAnswers>;

// The decision coding: 'Y' passed, 'N' failed (manual ID upload offered), 'R' under review by the vendor.
export const identityDecision = z.enum(['Y', 'N', 'R']);
export type IdentityDecision = z.infer<typeof identityDecision>;

export const identityProvider = z.enum(['sandbox']);

// The answer to the identity and to each quiz: another quiz (quizId and questions) or a decision, never both.
export const identityProofingResult = z.object({
  provider: identityProvider,
  quizId: text().nullable(),
  questions: z.array(quizQuestion),
  decision: identityDecision.nullable(),
});
export type IdentityProofingResult = z.infer<typeof identityProofingResult>;

// GET /api/identityproofing: what the dialogs need before any call (the provider to say "sandbox", the latest decision).
export const identityProofingStatus = z.object({
  provider: identityProvider,
  decision: identityDecision.nullable(),
  documentSubmitted: z.boolean(),
});
export type IdentityProofingStatus = z.infer<typeof identityProofingStatus>;

export const identityDocumentResult = z.object({ message: text() });
