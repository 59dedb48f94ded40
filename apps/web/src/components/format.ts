import dayjs from 'dayjs';
import { DATE_FORMAT } from '@clinicrelay/contracts/constants.ts';

// Dates are stored in UTC and shown in the user's time zone, MM/DD/YYYY (DESIGN.md "Texts and time").
export const formatDate = (value: string | null | undefined) => (value ? dayjs(value).format(DATE_FORMAT) : '');
export const formatDateTime = (value: string | null | undefined) => (value ? dayjs(value).format(`${DATE_FORMAT} h:mm A`) : '');
export const formatTime = (value: string | null | undefined) => (value ? dayjs(value).format('h:mm A') : '');
