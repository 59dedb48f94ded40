import { encodeWords, foldLines } from 'nodemailer/lib/mime-funcs';
import { encode as encodeQuotedPrintable, wrap as wrapQuotedPrintable } from 'nodemailer/lib/qp';
import { contentTypeOf, decodedBody, headerValue, multipartParts, readEntity, unwrapMessage, type MimeEntity } from './mime-entity.ts';

// Message Disposition Notifications (RFC 3798 / 8098) as Direct uses them (Implementation Guide for
// Delivery Notification in Direct v1.0): "processed" once the receiving HISP has decrypted and trusted a
// message, "dispatched" (with the X-DIRECT-FINAL-DESTINATION-DELIVERY field) once it reached the
// recipient, "failed" (with a Failure field) when it never will.

export type Disposition = 'processed' | 'dispatched' | 'failed' | 'displayed' | 'deleted';

const DISPOSITIONS: readonly Disposition[] = ['processed', 'dispatched', 'failed', 'displayed', 'deleted'];
const FINAL_DESTINATION_FIELD = 'X-DIRECT-FINAL-DESTINATION-DELIVERY';
const REPORT_TYPES = new Set(['message/disposition-notification', 'message/global-disposition-notification']);
// MDNs are small; one that carries the whole original back is read up to this size and no further.
const MAX_MDN_BYTES = 10 * 1024 * 1024;
const MAX_REPORT_PARTS = 20;
const MAX_FIELD_CHARS = 500;

const HUMAN_TEXT: Record<Disposition, string> = {
  processed: 'Your message was received and processed by the recipient\'s secure messaging system (HISP).',
  dispatched: 'Your message was delivered to the recipient.',
  failed: 'Your message could not be delivered to the recipient.',
  displayed: 'Your message was displayed to the recipient.',
  deleted: 'Your message was deleted without being displayed to the recipient.',
};

// A header field's value on one line: no line breaks (no header injection), printable ASCII, bounded.
const fieldValue = (value: string) =>
  value
    .replace(/[\r\n\t]+/g, ' ')
    .replace(/[^\x20-\x7e]/g, '?')
    .trim()
    .slice(0, MAX_FIELD_CHARS);

// Message-IDs are compared in their <id> form, as mailparser reports them and the sender stored them.
const angleBracketed = (id: string) => {
  const bare = id.trim().replace(/^<|>$/g, '').trim();
  return bare ? `<${bare}>` : '';
};

const capitalized = (word: string) => word[0]!.toUpperCase() + word.slice(1);

/** A complete MDN message (RFC 5322, CRLF line endings) from the original recipient back to the original sender. */
export function buildMdn(input: {
  from: string;
  to: string;
  originalMessageId: string;
  originalSubject: string;
  finalRecipient: string;
  disposition: Disposition;
  reportingUa: string;
  failureText?: string;
  messageId: string;
  date: Date;
}): Buffer {
  const boundary = `----=_MDN_${input.messageId.replace(/[^A-Za-z0-9]/g, '').slice(0, 40)}_${input.date.getTime()}`;
  const recipient = fieldValue(input.finalRecipient);
  const header = (name: string, value: string) => foldLines(`${name}: ${value}`, 76);
  const subject = `${capitalized(input.disposition)}: ${input.originalSubject.replace(/[\r\n]+/g, ' ')}`;
  const human = [HUMAN_TEXT[input.disposition], '', `Original subject: ${input.originalSubject.replace(/[\r\n]+/g, ' ')}`, `Recipient: ${recipient}`];
  if (input.disposition === 'failed' && input.failureText) human.push(`Reason: ${input.failureText.replace(/[\r\n]+/g, ' ')}`);

  const report = [
    `Reporting-UA: ${fieldValue(input.reportingUa)}`,
    `Original-Recipient: rfc822;${recipient}`,
    `Final-Recipient: rfc822;${recipient}`,
    `Original-Message-ID: ${angleBracketed(fieldValue(input.originalMessageId))}`,
    `Disposition: automatic-action/MDN-sent-automatically;${input.disposition}`,
  ];
  if (input.disposition === 'dispatched') report.push(`${FINAL_DESTINATION_FIELD}:`);
  if (input.disposition === 'failed') report.push(`Failure: ${fieldValue(input.failureText ?? 'The message could not be delivered.')}`);

  const lines = [
    header('From', fieldValue(input.from)),
    header('To', fieldValue(input.to)),
    header('Subject', encodeWords(subject, 'Q', 52)),
    header('Message-ID', angleBracketed(fieldValue(input.messageId))),
    header('Date', input.date.toUTCString().replace('GMT', '+0000')),
    'MIME-Version: 1.0',
    `Content-Type: multipart/report; report-type=disposition-notification;\r\n boundary="${boundary}"`,
    '',
    'This is a delivery notification in MIME format.',
    `--${boundary}`,
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: quoted-printable',
    '',
    wrapQuotedPrintable(encodeQuotedPrintable(human.join('\r\n')), 76),
    `--${boundary}`,
    'Content-Type: message/disposition-notification',
    'Content-Transfer-Encoding: 7bit',
    '',
    ...report.map((field) => foldLines(field, 76)),
    `--${boundary}--`,
    '',
  ];
  return Buffer.from(lines.join('\r\n'), 'utf8');
}

// The report-type of a multipart/report entity (lower case), or null for any other entity. Never throws.
function reportTypeOf(entity: Uint8Array): string | null {
  try {
    const { mediaType, params } = contentTypeOf(readEntity(unwrapMessage(entity)));
    return mediaType === 'multipart/report' ? (params['report-type'] ?? '').trim().toLowerCase() : null;
  } catch {
    return null;
  }
}

/** Whether the (verified, inner) entity is an MDN: multipart/report; report-type=disposition-notification. Never throws. */
export function isMdn(entity: Uint8Array): boolean {
  return reportTypeOf(entity) === 'disposition-notification';
}

/** Whether the entity is a DSN (RFC 3464): multipart/report; report-type=delivery-status. Never throws. */
export function isDsn(entity: Uint8Array): boolean {
  return reportTypeOf(entity) === 'delivery-status';
}

/** Whether the entity is a report of any kind (multipart/report): a notice about a message, never a message to file. */
export function isReport(entity: Uint8Array): boolean {
  return reportTypeOf(entity) !== null;
}

// "rfc822;user@example.org" → "user@example.org"; a value without an address type is taken as it is.
const addressOf = (field: string | null) => {
  if (!field) return null;
  const value = field.includes(';') ? field.slice(field.indexOf(';') + 1) : field;
  return value.trim().replace(/^<|>$/g, '') || null;
};

/**
 * What an MDN reports: the message it is about (its Message-ID in <id> form), the disposition, the final
 * recipient, the failure text, and whether it is Direct's final-destination ("dispatched") notice. Null
 * when the entity is not an MDN, or is one that names no original message or no known disposition.
 */
export function parseMdn(
  entity: Uint8Array,
): {
  originalMessageId: string;
  disposition: Disposition;
  finalRecipient: string | null;
  originalRecipient: string | null;
  failure: string | null;
  isFinalDestination: boolean;
} | null {
  if (!isMdn(entity)) return null;
  if (entity.length > MAX_MDN_BYTES) throw new Error(`The delivery notification is larger than ${MAX_MDN_BYTES / 1024 / 1024} MB.`);
  let reportPart: MimeEntity | undefined;
  try {
    reportPart = multipartParts(readEntity(unwrapMessage(entity)), MAX_REPORT_PARTS).find((part) => REPORT_TYPES.has(contentTypeOf(part).mediaType));
  } catch {
    return null;
  }
  if (!reportPart) return null;
  // The report's fields have the syntax of a header block; a stray blank line before them is tolerated.
  const fields = readEntity(Buffer.from(decodedBody(reportPart).toString('latin1').replace(/^(\r?\n)+/, ''), 'latin1'));

  const originalMessageId = angleBracketed(headerValue(fields, 'original-message-id') ?? '');
  // "automatic-action/MDN-sent-automatically; processed/error": the type is after the ';', before any '/'.
  const dispositionField = headerValue(fields, 'disposition') ?? '';
  const [type = '', ...modifiers] = (dispositionField.split(';')[1] ?? '').trim().toLowerCase().split('/');
  const named = DISPOSITIONS.find((known) => known === type.trim());
  if (!originalMessageId || !named) return null;
  // RFC 3798's "error" modifier means the processing failed, whatever the type says.
  const disposition: Disposition = modifiers.some((modifier) => modifier.trim() === 'error') ? 'failed' : named;
  const failure = headerValue(fields, 'failure') ?? headerValue(fields, 'error');
  return {
    originalMessageId,
    disposition,
    finalRecipient: addressOf(headerValue(fields, 'final-recipient')),
    originalRecipient: addressOf(headerValue(fields, 'original-recipient')),
    failure: failure ? failure.slice(0, MAX_FIELD_CHARS) : null,
    isFinalDestination: fields.headers.has(FINAL_DESTINATION_FIELD.toLowerCase()),
  };
}

export type DeliveryAction = 'failed' | 'delayed' | 'delivered' | 'relayed' | 'expanded';

const ACTIONS: readonly DeliveryAction[] = ['failed', 'delayed', 'delivered', 'relayed', 'expanded'];
const RETURNED_HEADERS = new Set(['text/rfc822-headers', 'message/rfc822', 'message/rfc822-headers', 'message/global', 'message/global-headers']);
const MAX_DSN_RECIPIENTS = 100;

export interface DeliveryStatus {
  /** The message reported on, in <id> form: X-Original-Message-ID (Direct), else the returned headers' Message-ID. */
  originalMessageId: string;
  recipients: { finalRecipient: string | null; originalRecipient: string | null; action: DeliveryAction; status: string | null; diagnostic: string | null }[];
}

// The field groups of a message/delivery-status body (RFC 3464 §2.1): the per-message group, then one per recipient.
const fieldGroups = (body: Buffer) =>
  body
    .toString('latin1')
    .replace(/^(\r?\n)+/, '')
    .split(/\r?\n[ \t]*\r?\n/)
    .filter((group) => group.trim() !== '')
    .map((group) => readEntity(Buffer.from(`${group}\r\n\r\n`, 'latin1')));

const diagnosticOf = (value: string | null) => {
  // "smtp; 550 5.1.1 user unknown": the text after the diagnostic type.
  if (!value) return null;
  const text = (value.includes(';') ? value.slice(value.indexOf(';') + 1) : value).trim();
  return text ? fieldValue(text) : null;
};

/**
 * What a DSN (RFC 3464, as Direct HISPs and MTAs send them) reports: the message it is about and, per recipient,
 * the action (failed, delayed, ...), status and diagnostic. Null when the entity is not a DSN or names no message.
 */
export function parseDsn(entity: Uint8Array): DeliveryStatus | null {
  if (!isDsn(entity)) return null;
  if (entity.length > MAX_MDN_BYTES) throw new Error(`The delivery notification is larger than ${MAX_MDN_BYTES / 1024 / 1024} MB.`);
  let parts: MimeEntity[];
  try {
    parts = multipartParts(readEntity(unwrapMessage(entity)), MAX_REPORT_PARTS);
  } catch {
    return null;
  }
  const statusPart = parts.find((part) => ['message/delivery-status', 'message/global-delivery-status'].includes(contentTypeOf(part).mediaType));
  if (!statusPart) return null;
  const [perMessage, ...perRecipient] = fieldGroups(decodedBody(statusPart));
  const returned = parts.find((part) => RETURNED_HEADERS.has(contentTypeOf(part).mediaType));
  let returnedId: string | null;
  try {
    returnedId = returned ? headerValue(readEntity(decodedBody(returned)), 'message-id') : null;
  } catch {
    returnedId = null;
  }
  const originalMessageId = angleBracketed(fieldValue((perMessage && headerValue(perMessage, 'x-original-message-id')) ?? returnedId ?? ''));
  if (!originalMessageId) return null;
  const recipients = perRecipient.slice(0, MAX_DSN_RECIPIENTS).flatMap((fields) => {
    const action = ACTIONS.find((known) => known === (headerValue(fields, 'action') ?? '').trim().toLowerCase());
    if (!action) return [];
    const status = (headerValue(fields, 'status') ?? '').trim();
    return [
      {
        finalRecipient: addressOf(headerValue(fields, 'final-recipient')),
        originalRecipient: addressOf(headerValue(fields, 'original-recipient')),
        action,
        status: /^[245]\.\d{1,3}\.\d{1,3}$/.test(status) ? status : null,
        diagnostic: diagnosticOf(headerValue(fields, 'diagnostic-code')),
      },
    ];
  });
  return { originalMessageId, recipients };
}
