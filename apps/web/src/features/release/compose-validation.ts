import { isTelephoneNumber } from '@clinicrelay/contracts/addresses.ts';
import { EMPTY_DOCUMENT_DATE } from '@clinicrelay/contracts/attachments.ts';
import { todayIsoDate } from '@clinicrelay/contracts/dates.ts';
import { releaseMessages, type Message } from '@clinicrelay/contracts/messages.ts';
import { subscriptionMessages } from '@clinicrelay/contracts/subscriptions.ts';
import type { SendAction } from './api.ts';
import type { ComposeValues } from './release-compose-form.ts';
import { checkTypedDate } from '../../components/typed-date-input.tsx';

// The send rules of end-user §5 ("Release send", "Patient and document rules on save"), checked in the
// browser before Review and Send opens, all at once, as the server checks them again at send.

/** Every problem, in the order the list shows them, and the text each marked field shows. */
export interface SendProblems {
  list: string[];
  fields: Record<string, string>;
}

type Attachment = Pick<Message['attachments'][number], 'fileName' | 'isSelected' | 'attachmentMeta'>;

export const birthDateTexts = { invalid: releaseMessages.patientBirthDateInvalid, future: releaseMessages.patientBirthDateFuture };

export function checkBeforeSend(
  values: ComposeValues,
  // recipientStatus: for a plan-restricted organization, what the recipient check said of a To address (lower case).
  context: { action: SendAction; attachments: Attachment[]; planRestricted?: boolean; recipientStatus?: (address: string) => string | undefined },
): SendProblems {
  const list: string[] = [];
  const fields: Record<string, string> = {};
  const add = (text: string, field?: string) => {
    if (!list.includes(text)) list.push(text);
    if (field && !(field in fields)) fields[field] = text;
  };
  const isReply = context.action === 'reply';
  const today = todayIsoDate();

  // The server lists "An attachment's information is invalid." first, then each file's problem.
  const attachmentProblems: string[] = [];
  for (const attachment of context.attachments.filter((a) => a.isSelected)) {
    const meta = attachment.attachmentMeta;
    const date = meta?.documentDate && meta.documentDate !== EMPTY_DOCUMENT_DATE ? meta.documentDate : null;
    if (values.conversion === 'Cda' && !meta?.documentType) attachmentProblems.push(releaseMessages.documentTypeRequired(attachment.fileName));
    if (!date) attachmentProblems.push(releaseMessages.documentDateRequired(attachment.fileName));
    else if (date > today) attachmentProblems.push(releaseMessages.documentDateFuture);
    if (!isReply && !meta?.confidentiality) attachmentProblems.push(releaseMessages.confidentialityRequired(attachment.fileName));
  }
  if (attachmentProblems.length > 0) [releaseMessages.attachmentInvalid, ...attachmentProblems].forEach((text) => add(text));

  if (values.to.length === 0) add(releaseMessages.toRequired, 'to');
  // end-user §5/§6: a plan-restricted organization sends only to fax or phone numbers or to addresses hosted here.
  if (context.planRestricted) {
    for (const address of values.to) {
      const status = address.includes('@') ? context.recipientStatus?.(address.toLowerCase()) : undefined;
      if (status && status !== 'Hosted') add(subscriptionMessages.planRestrictedRecipient, 'to');
    }
  }
  if (!values.fromAddress) add(releaseMessages.fromRequired, 'fromAddress');
  if (!isReply && !values.releaseTypeId) add(releaseMessages.releaseTypeRequired, 'releaseTypeId');

  // A reply answers about the original's patient: no patient rules (as the server).
  if (!isReply) {
    const p = values.patient;
    const hasPatient = Object.values(p).some((value) => value !== null && value.trim() !== '');
    if (!hasPatient) add(releaseMessages.patientDetailsRequired);
    if (!p.firstName.trim()) add(releaseMessages.patientFirstNameRequired, 'patient.firstName');
    if (!p.lastName.trim()) add(releaseMessages.patientLastNameRequired, 'patient.lastName');
    if (!p.birthDate.trim()) add(releaseMessages.patientBirthDateRequired, 'patient.birthDate');
    if (!p.gender) add(releaseMessages.patientGenderRequired, 'patient.gender');
    if (p.telephone.trim() && !isTelephoneNumber(p.telephone)) add(releaseMessages.patientTelephoneInvalid, 'patient.telephone');
  }
  // A typed birth date is checked whatever the kind of send: a wrong one is never sent.
  const birth = checkTypedDate(values.patient.birthDate, birthDateTexts);
  if (birth.error) add(birth.error, 'patient.birthDate');

  return { list, fields };
}

// The form field a key of the server's modelState marks (contracts/delivery.ts sendModelStateKeys).
function fieldOf(key: string): string | null {
  if (key === 'toAddress' || key.startsWith('toAddress:')) return 'to';
  if (key === 'fromAddress' || key === 'releaseTypeId' || key === 'subject') return key;
  if (/^patient\.(firstName|lastName|birthDate|gender|telephone)$/.test(key)) return key;
  return null;
}

/** A refused send's 400: every message listed once, and the fields it names marked. */
export function serverProblems(message: string, modelState: Record<string, string[]>): SendProblems {
  const list: string[] = [];
  const fields: Record<string, string> = {};
  for (const [key, texts] of Object.entries(modelState)) {
    for (const text of texts) if (!list.includes(text)) list.push(text);
    const field = fieldOf(key);
    if (field && texts[0] && !(field in fields)) fields[field] = texts[0];
  }
  if (list.length === 0 && message !== releaseMessages.fixErrorsHeading) list.push(message);
  return { list, fields };
}
