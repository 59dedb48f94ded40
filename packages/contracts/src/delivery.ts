import { z } from 'zod';
import { text } from './text.ts';

// A recipient the send answer warns about (issue 9, "sandbox honesty"): reason is a sentence shown as is.
export const recipientNotice = z.object({ recipient: text(), channel: z.enum(['Direct', 'Fax']), reason: text() });
export type RecipientNotice = z.infer<typeof recipientNotice>;

// POST /api/messages/{id}/send, /forward and /reply answer at once; delivery runs in the background.
// waiting: recipients this installation cannot reach yet (the message waits for them; message then says so
// instead of "sent successfully"). simulated: recipients whose delivery is only simulated (sandbox fax).
export const sendResult = z.object({ message: text(), id: text(), waiting: z.array(recipientNotice), simulated: z.array(recipientNotice) });
export type SendResult = z.infer<typeof sendResult>;

// Not in the spec: the send answer's texts when some recipients cannot be reached (end-user §8 has only
// the success text, which would be untrue then) and why, per recipient.
export const sendNotices = {
  directOutsideInstallation:
    'Direct delivery to addresses outside this installation is not available yet. The message waits for this recipient and is delivered once it is.',
  sandboxFax: 'This installation uses the sandbox fax provider: no real fax is sent to this number.',
  sentWithWaiting: (waiting: number, total: number) =>
    waiting === total
      ? `The message was sent, but none of its recipients can be reached yet. It waits for them; see each recipient's status.`
      : `The message was sent, but ${waiting === 1 ? '1 recipient' : `${waiting} recipients`} cannot be reached yet. It waits for them; see each recipient's status.`,
} as const;

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
  patientField: (field: 'firstName' | 'lastName' | 'birthDate' | 'gender' | 'telephone') => `patient.${field}`,
  attachments: 'attachments',
  attachmentField: (attachmentId: string, field: 'documentType' | 'documentDate' | 'confidentiality') => `attachments.${attachmentId}.${field}`,
} as const;

// A Direct recipient's stages over SMTP (issue 12 §4), from the send workflow and the MDNs that come back.
export const deliveryStage = z.enum(['Queued', 'Sent', 'Processed', 'Dispatched', 'Failed']);
export type DeliveryStage = z.infer<typeof deliveryStage>;
export const deliveryStageLabels: Record<DeliveryStage, string> = {
  Queued: 'Queued',
  Sent: 'Sent to the recipient’s mail server',
  Processed: 'Processed by the recipient’s HISP',
  Dispatched: 'Delivered to the recipient',
  Failed: 'Failed',
};

// POST /api/messages/recipients/check (not in the spec; issue 12 §4): before sending, what each To address is, in
// plain words, instead of an opaque "NoTrustedRecipients" after the fact.
export const recipientCheckStatus = z.enum(['Hosted', 'Trusted', 'NoCertificate', 'Untrusted', 'Expired', 'Fax', 'Invalid']);
export type RecipientCheckStatus = z.infer<typeof recipientCheckStatus>;
export const recipientCheckRequest = z.object({ addresses: z.array(text().max(320)).min(1).max(50) });
export const recipientCheck = z.object({
  address: text(),
  status: recipientCheckStatus,
  // A sentence shown as is: 'Hosted on this installation', 'No certificate found (DNS and LDAP tried)', …
  text: text(),
  // Whether a message to this address can be sent (hosted, trusted or fax).
  deliverable: z.boolean(),
});
export const recipientCheckResult = z.object({ recipients: z.array(recipientCheck) });
export type RecipientCheck = z.infer<typeof recipientCheck>;
export const recipientCheckTexts: Record<RecipientCheckStatus, string> = {
  Hosted: 'Hosted on this installation',
  Trusted: 'Trusted Direct address',
  NoCertificate: 'No certificate found for this address (DNS and LDAP tried)',
  Untrusted: 'Certificate found, but not issued by a trusted authority',
  Expired: 'Certificate found, but it has expired',
  Fax: 'Fax number',
  Invalid: 'Not a valid Direct address or fax number',
};

// The texts delivery writes as a recipient's reason (the sender's per-recipient status).
export const deliveryReasons = {
  awaitingDirectTransport: sendNotices.directOutsideInstallation,
  deliveredHere: 'Delivered to an organization on this installation',
  sandboxFaxDelivered: 'Delivered by the sandbox fax provider (no real fax was sent)',
  sandboxFaxDeliveredHere: 'Delivered by the sandbox fax provider to an organization on this installation (no real fax was sent)',
  directSent: 'Sent over Direct; waiting for the recipient’s delivery notification',
  directProcessed: 'Processed by the recipient’s HISP; waiting for delivery to the recipient',
  directDispatched: 'Delivered to the recipient (Direct delivery notification received)',
  noNotification: 'No delivery notification received',
} as const;

// Reasons that mean the delivery was only simulated; 'Awaiting Direct transport' is how rows written before
// issue 9 say they wait.
const SIMULATED_REASONS: readonly string[] = [deliveryReasons.sandboxFaxDelivered, deliveryReasons.sandboxFaxDeliveredHere];
const WAITING_REASONS: readonly string[] = [deliveryReasons.awaitingDirectTransport, 'Awaiting Direct transport'];
export const isSimulatedDelivery = (reason: string | null | undefined) => !!reason && SIMULATED_REASONS.includes(reason);

// A recipient's status as one line the web shows as is (a bare "Delivered" for a sandbox fax was untrue).
export function deliveryStatusDetail(status: 'Pending' | 'Delivered' | 'Failed', reason: string | null | undefined): string {
  if (reason === deliveryReasons.sandboxFaxDelivered) return 'Delivered (sandbox: no real fax was sent)';
  if (reason === deliveryReasons.sandboxFaxDeliveredHere) return 'Delivered to an organization on this installation (sandbox: no real fax was sent)';
  if (reason === deliveryReasons.deliveredHere) return 'Delivered to an organization on this installation';
  // Direct over SMTP: the reason already says where the recipient stands.
  if (reason === deliveryReasons.directDispatched || reason === deliveryReasons.directSent || reason === deliveryReasons.directProcessed) return reason;
  if (status === 'Pending' && reason && WAITING_REASONS.includes(reason)) return 'Waiting: Direct delivery to addresses outside this installation is not available yet';
  if (status === 'Pending') return 'Pending';
  return reason ? `${status}: ${reason}` : status;
}

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

// Issue 26: back-office-a §4 "activation enables Intake and Release", enforced by the API (not only /release/new's
// redirect). ASCII only: the receiving reasons are also SMTP replies.
export const activationMessages = {
  // The Release page's words for the same rule.
  sendNotActivated: 'Your organization must be activated before sending messages.',
  receiveNotActivated: "The recipient's organization is not activated (activation enables Intake and Release).",
  receiveCancelled: "The recipient's organization is canceled.",
} as const;
