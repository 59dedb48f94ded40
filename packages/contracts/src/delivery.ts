import { z } from 'zod';
import { text } from './text.ts';

// POST /api/messages/{id}/send, /forward and /reply answer at once; delivery runs in the background.
export const sendResult = z.object({ message: text(), id: text() });
export type SendResult = z.infer<typeof sendResult>;

// Not shown in the spec: where each send problem is reported in the 400's modelState. One key per
// field; a To address that is not valid gets its own key naming it, so a tags input can mark that tag:
//   toAddress                          '"To" address is required.'
//   toAddress:<address as typed>       'This address is not valid.'
//   fromAddress                        '"From" address is required.' | 'This address is not valid.' (not one of the organization's)
//   releaseTypeId                      '"Release Type" is required.' (not for reply)
//   patient | patient.firstName | patient.lastName | patient.birthDate | patient.gender
//   attachments                        "An attachment's information is invalid." (first key, once, when any
//                                      attachments.<id>.* problem exists) | non-PHI fax: 'Missing file attachment.'
//   attachments.<attachmentId>.documentType | attachments.<attachmentId>.documentDate
//   attachments.<attachmentId>.confidentiality   (send and forward)
// A non-PHI fax (origin ending '_non-patient') is checked with its own texts: toAddress '"To" fax number
// is required.', toAddress:<address> (not a fax number), subject '"Subject" is required.', fromAddress
// '"From" fax number is required.' (missing or not one of the organization's fax numbers), attachments.
export const sendModelStateKeys = {
  to: 'toAddress',
  invalidTo: (address: string) => `toAddress:${address}`,
  from: 'fromAddress',
  subject: 'subject',
  releaseType: 'releaseTypeId',
  patient: 'patient',
  patientField: (field: 'firstName' | 'lastName' | 'birthDate' | 'gender') => `patient.${field}`,
  attachments: 'attachments',
  attachmentField: (attachmentId: string, field: 'documentType' | 'documentDate' | 'confidentiality') => `attachments.${attachmentId}.${field}`,
} as const;

// The texts delivery writes as a recipient's reason (the sender's per-recipient status).
export const deliveryReasons = {
  awaitingDirectTransport: 'Awaiting Direct transport',
  deliveredHere: 'Delivered to an organization on this installation',
  sandboxFaxDelivered: 'Delivered by the sandbox fax provider (no real fax was sent)',
  sandboxFaxDeliveredHere: 'Delivered by the sandbox fax provider to an organization on this installation (no real fax was sent)',
} as const;

export type RecipientAddress = { channel: 'Direct'; address: string } | { channel: 'Fax'; address: string };

// end-user §5 "Field rules": a Direct address is email-like; its local part uses letters, digits and
// common punctuation, with no leading, trailing or consecutive periods.
const DIRECT_LOCAL = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]{1,64}$/;
const DOMAIN_LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;
// Fax numbers are reduced to digits: 10, or 11 with a leading country digit 1.
const FAX_TYPED = /^[\d\s().+-]+$/;

export function isValidDirectAddress(value: string): boolean {
  const at = value.lastIndexOf('@');
  if (at <= 0 || value.length > 254) return false;
  const local = value.slice(0, at);
  const domain = value.slice(at + 1);
  if (!DIRECT_LOCAL.test(local) || local.startsWith('.') || local.endsWith('.') || local.includes('..')) return false;
  const labels = domain.split('.');
  return labels.length >= 2 && labels.every((l) => DOMAIN_LABEL.test(l)) && /[A-Za-z]/.test(labels.at(-1)!);
}

// The address as delivered and stored per recipient (Direct lower-case, fax 10 digits), or null when
// it is neither a Direct address nor a fax number.
export function parseRecipient(value: string): RecipientAddress | null {
  const typed = value.trim();
  if (typed.includes('@')) return isValidDirectAddress(typed) ? { channel: 'Direct', address: typed.toLowerCase() } : null;
  if (!FAX_TYPED.test(typed)) return null;
  const digits = typed.replace(/\D/g, '');
  if (digits.length === 10) return { channel: 'Fax', address: digits };
  if (digits.length === 11 && digits.startsWith('1')) return { channel: 'Fax', address: digits.slice(1) };
  return null;
}
