import dayjs from 'dayjs';
import { DATE_FORMAT } from '@clinicrelay/contracts/constants.ts';

// Dates are stored in UTC and shown in the user's time zone, MM/DD/YYYY (DESIGN.md "Texts and time").
export const formatDate = (value: string | null | undefined) => (value ? dayjs(value).format(DATE_FORMAT) : '');
export const formatDateTime = (value: string | null | undefined) => (value ? dayjs(value).format(`${DATE_FORMAT} h:mm A`) : '');
export const formatTime = (value: string | null | undefined) => (value ? dayjs(value).format('h:mm A') : '');

/** Recent activity: today's events show their time (h:mm A), earlier ones their day (MMM DD). */
export function activityTime(value: string, now = dayjs()) {
  const at = dayjs(value);
  return at.isSame(now, 'day') ? at.format('h:mm A') : at.format('MMM DD');
}

/** A file's size for people: bytes, KB or MB (downloads). */
export const formatFileSize = (bytes: number) =>
  bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(1)} MB` : bytes >= 1024 ? `${Math.round(bytes / 1024)} KB` : `${bytes} bytes`;
