import dayjs from 'dayjs';
import { parseRecipient } from '@clinicrelay/contracts/delivery.ts';
import type { Message } from '@clinicrelay/contracts/messages.ts';
import { formatDateTime } from '../../components/format.ts';

// Addresses, dates and subjects of the compose form (end-user §4 "Draft lifecycle", §5 "Release send").

// The same address rules as the server (contracts): a Direct address or a fax number of 10 digits.
export const isFaxNumber = (value: string) => parseRecipient(value)?.channel === 'Fax';

/** A To tag as it is stored: fax numbers as their 10 digits, Direct addresses lower-cased; null when invalid. */
export const normalizeAddress = (value: string): string | null => parseRecipient(value)?.address ?? null;

/** ddd-ddd-dddd for fax numbers; anything else as is. */
export function formatAddress(value: string): string {
  const parsed = parseRecipient(value);
  if (parsed?.channel !== 'Fax') return value;
  const fax = parsed.address;
  return `${fax.slice(0, 3)}-${fax.slice(3, 6)}-${fax.slice(6)}`;
}

/** MM/DD/YYYY → YYYY-MM-DD; '' stays ''; null when it is not a real date. */
export function toIsoDate(value: string): string | null {
  const text = value.trim();
  if (text === '') return '';
  const match = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(text);
  if (!match) return null;
  const iso = `${match[3]}-${match[1]!.padStart(2, '0')}-${match[2]!.padStart(2, '0')}`;
  const date = new Date(`${iso}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === iso ? iso : null;
}

/** YYYY-MM-DD → MM/DD/YYYY. */
export function fromIsoDate(value: string | null | undefined): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value ?? '');
  return match ? `${match[2]}/${match[3]}/${match[1]}` : '';
}

export const todayIso = () => dayjs().format('YYYY-MM-DD');

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

export function truncateName(name: string, max = 60): string {
  return name.length <= max ? name : `${name.slice(0, max - 1)}…`;
}

// One color per delivery status wherever a recipient's status shows.
export const deliveryStatusColor = { Pending: 'yellow', Delivered: 'teal', Failed: 'red' } as const;
