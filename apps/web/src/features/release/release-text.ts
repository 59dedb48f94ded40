import { formatFaxNumber } from '@clinicrelay/contracts/addresses.ts';
import { parseRecipient } from '@clinicrelay/contracts/delivery.ts';
import type { Message } from '@clinicrelay/contracts/messages.ts';
import { isUsableSource } from '../../api/document-sources.ts';
import { formatDateTime } from '../../components/format.ts';

// Addresses, dates and subjects of the compose form (end-user §4 "Draft lifecycle", §5 "Release send").

// The same address rules as the server (contracts): a Direct address or a fax number of 10 digits.
export const isFaxNumber = (value: string) => parseRecipient(value)?.channel === 'Fax';
export const isDirectAddress = (value: string) => parseRecipient(value)?.channel === 'Direct';

/** A To tag as it is stored: fax numbers as their 10 digits, Direct addresses lower-cased; null when invalid. */
export const normalizeAddress = (value: string): string | null => parseRecipient(value)?.address ?? null;

/** Fax numbers by the one fax display rule (503-555-0101); Direct addresses as they are. */
export function formatAddress(value: string): string {
  const parsed = parseRecipient(value);
  return parsed?.channel === 'Fax' ? formatFaxNumber(parsed.address) : value;
}

// The addresses the user may send from.
export const usableFrom = (sources: { address: { fullAddress: string }; status: number; canSend: boolean }[] | undefined) =>
  (sources ?? []).filter(isUsableSource).map((s) => s.address.fullAddress);

const FORWARD_PREFIX = 'FW: ';
const REPLY_PREFIX = 'RE: ';

export function forwardSubject(subject: string): string {
  return subject.startsWith(FORWARD_PREFIX) ? subject : `${FORWARD_PREFIX}${subject}`;
}

// An existing FW prefix is stripped (end-user §4), and replying to a reply does not stack RE: prefixes.
export function replySubject(subject: string): string {
  let rest = subject;
  while (/^(FW|RE):\s*/i.test(rest)) rest = rest.replace(/^(FW|RE):\s*/i, '');
  return `${REPLY_PREFIX}${rest}`;
}

export function quoteOriginal(original: Pick<Message, 'fromAddress' | 'messageDate' | 'createdDate' | 'subject' | 'body'>): string {
  const date = formatDateTime(original.messageDate ?? original.createdDate);
  return `\n\n----- Original message -----\nFrom: ${original.fromAddress ?? ''}\nDate: ${date}\nSubject: ${original.subject}\n\n${original.body}`;
}

/** Bytes as the attachment list shows them: B, k or MB. */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} k`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

// One color per delivery status wherever a recipient's status shows.
export const deliveryStatusColor = { Pending: 'yellow', Delivered: 'teal', Failed: 'red' } as const;
