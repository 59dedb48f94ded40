import { simpleParser, type AddressObject, type EmailAddress, type ParsedMail } from 'mailparser';
import { detectExtension } from 'nodemailer/lib/mime-funcs';
import type { AttachmentMeta } from '../../db/schema/messages.ts';
import type { InboundPatient } from '../../transports/local.ts';
import { headerValue, readEntity, unwrapMessage } from './mime-entity.ts';
import { PATIENT_HEADER, readPatientHeader } from './patient-header.ts';
import { cleanFileName, isXdmPackage, readXdmPackage, withoutBrokenEnd } from './xdm.ts';

// What a Direct message says, read from the signed inner entity once its signature has been verified
// (the outer, unprotected envelope's headers are never trusted). XDM packages among the attachments are
// unpacked into their documents; the patient comes from their metadata.

export interface DirectContent {
  subject: string;
  from: string | null;
  to: string[];
  messageId: string | null;
  date: Date | null;
  /** text/plain body (or text from text/html when only HTML), trimmed to 1 MB. */
  body: string;
  attachments: { fileName: string; mimeType: string; bytes: Buffer; meta: AttachmentMeta | null }[];
  /** From an XDM package's metadata when present, else from the X-ClinicRelay-Patient header. */
  patient: InboundPatient | null;
  /** Importance: high / X-Priority 1. */
  isUrgent: boolean;
  /** The Disposition-Notification-To address. */
  dispositionNotificationTo: string | null;
  /** Disposition-Notification-Options asks for X-DIRECT-FINAL-DESTINATION-DELIVERY. */
  finalDeliveryRequested: boolean;
}

// The largest message DIRECT_MAX_MESSAGE_MB allows, with room for its transfer encoding.
const MAX_ENTITY_BYTES = 280 * 1024 * 1024;
const MAX_BODY_BYTES = 1024 * 1024;
// As long as a message's subject may be (contracts: messages).
const MAX_SUBJECT_CHARS = 255;
const MAX_ATTACHMENTS = 500;
const MAX_ATTACHMENT_TOTAL_BYTES = 256 * 1024 * 1024;
const MAX_MIME_PARTS = 1000;
// Converting HTML to text is costly; past this an HTML-only body is left empty rather than converted.
const MAX_HTML_TO_TEXT_CHARS = 5 * 1024 * 1024;
const FINAL_DESTINATION_OPTION = 'x-direct-final-destination-delivery';

type Attachment = DirectContent['attachments'][number];

const addressesOf = (header: AddressObject | AddressObject[] | undefined): string[] => {
  const flatten = (list: EmailAddress[]): string[] => list.flatMap((entry) => (entry.group ? flatten(entry.group) : entry.address ? [entry.address] : []));
  return header ? [header].flat().flatMap((object) => flatten(object.value)) : [];
};

function trimToBytes(text: string, maxBytes: number): string {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= maxBytes) return text;
  // Cutting inside a multi-byte character leaves a replacement character at the end: drop it.
  return bytes.subarray(0, maxBytes).toString('utf8').replace(/\uFFFD$/, '');
}

// RFC 3798 §2.2: "X-DIRECT-FINAL-DESTINATION-DELIVERY=optional,true" asks for it; "...,false" does not.
function asksForFinalDelivery(options: string | null): boolean {
  if (!options) return false;
  return options.split(';').some((option) => {
    const [name = '', value = ''] = option.split('=');
    if (name.trim().toLowerCase() !== FINAL_DESTINATION_OPTION) return false;
    return value.trim() === '' || value.split(',').some((part) => part.trim().toLowerCase() === 'true');
  });
}

// The Date header when it is one: mailparser puts the current time in place of a date it cannot read.
function dateOf(parsed: ParsedMail, rawDate: string | null): Date | null {
  if (!rawDate || Number.isNaN(Date.parse(rawDate.replace(/\([^)]*\)/g, ''))) || !parsed.date) return null;
  return Number.isNaN(parsed.date.getTime()) ? null : parsed.date;
}

const readingFailed = (error: unknown) =>
  new Error(`The message's content could not be read${error instanceof Error && error.message ? ` (${error.message.slice(0, 200)})` : ''}.`);

/** Reads a verified Direct message (a full RFC 5322 message, or a MIME entity) into what Intake stores. */
export async function parseDirectContent(entity: Uint8Array): Promise<DirectContent> {
  if (entity.length > MAX_ENTITY_BYTES) throw new Error(`The message is larger than ${MAX_ENTITY_BYTES / 1024 / 1024} MB.`);
  const message = unwrapMessage(entity);
  const headers = readEntity(message);

  let parsed: ParsedMail;
  try {
    parsed = await simpleParser(message, {
      skipImageLinks: true,
      skipTextToHtml: true,
      skipTextLinks: true,
      keepCidLinks: true,
      checksumAlgo: false,
      maxHtmlLengthToParse: MAX_HTML_TO_TEXT_CHARS,
      maxChildNodes: MAX_MIME_PARTS,
    });
  } catch (error) {
    throw readingFailed(error);
  }

  const attachments: Attachment[] = [];
  let patient: InboundPatient | null = null;
  let totalBytes = 0;
  const add = (attachment: Attachment) => {
    if (attachments.length >= MAX_ATTACHMENTS) throw new Error(`The message has more than ${MAX_ATTACHMENTS} attachments.`);
    totalBytes += attachment.bytes.length;
    if (totalBytes > MAX_ATTACHMENT_TOTAL_BYTES) throw new Error(`The message's attachments come to more than ${MAX_ATTACHMENT_TOTAL_BYTES / 1024 / 1024} MB.`);
    attachments.push(attachment);
  };
  for (const part of parsed.attachments) {
    if (isXdmPackage(part.content)) {
      const xdm = readXdmPackage(part.content);
      xdm.documents.forEach(add);
      patient ??= xdm.patient;
      // A package whose METADATA.XML lists nothing (missing or unreadable) is kept as the zip it came as: nothing lost, nothing unlisted imported.
      if (xdm.documents.length > 0 || xdm.unlisted.length === 0) continue;
    }
    const mimeType = part.contentType?.toLowerCase() || 'application/octet-stream';
    const fileName = cleanFileName(part.filename ?? '') || `attachment-${attachments.length + 1}.${detectExtension(mimeType)}`;
    add({ fileName, mimeType, bytes: part.content, meta: null });
  }

  // An XDM package's metadata first (the standard place); else the signed header a message without documents carries.
  patient ??= readPatientHeader(headerValue(headers, PATIENT_HEADER));
  const notifyTo = parsed.headers.get('disposition-notification-to') as AddressObject | undefined;
  return {
    subject: withoutBrokenEnd((parsed.subject ?? '').trim().slice(0, MAX_SUBJECT_CHARS)),
    from: addressesOf(parsed.from)[0] ?? null,
    to: addressesOf(parsed.to),
    messageId: parsed.messageId ?? null,
    date: dateOf(parsed, headerValue(headers, 'date')),
    body: trimToBytes((parsed.text ?? '').trim(), MAX_BODY_BYTES),
    attachments,
    patient,
    isUrgent: parsed.headers.get('priority') === 'high',
    dispositionNotificationTo: addressesOf(notifyTo)[0] ?? null,
    finalDeliveryRequested: asksForFinalDelivery(headerValue(headers, 'disposition-notification-options')),
  };
}
