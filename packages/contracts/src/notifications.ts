import { z } from 'zod';
import { text } from './text.ts';

// Issue 13 §5 and back-office-a §3 userPreferences: the five notification flags, by their spec names.
export const notificationPreferences = z.object({
  emailNewMessages: z.boolean(),
  emailUnprocessedMessages: z.boolean(),
  emailSystemNotifications: z.boolean(),
  emailUnassignedMessages: z.boolean(),
  emailFailedMessagesDigest: z.boolean(),
});
export type NotificationPreferences = z.infer<typeof notificationPreferences>;

// The checkboxes' labels, in the spec's order (back-office-a §3 "notification checkboxes").
export const notificationPreferenceLabels: [keyof NotificationPreferences, string][] = [
  ['emailNewMessages', 'New messages'],
  ['emailUnprocessedMessages', 'Unprocessed messages'],
  ['emailSystemNotifications', 'System notifications'],
  ['emailUnassignedMessages', 'Unassigned messages'],
  ['emailFailedMessagesDigest', 'Failed message digest'],
];

// Not in the spec: what each flag sends, shown under its checkbox.
export const notificationPreferenceHints: Record<keyof NotificationPreferences, string> = {
  emailNewMessages: 'A mail within a minute when messages arrive in your Intake (one mail for several).',
  emailUnprocessedMessages: 'A daily reminder of your Intake messages left unprocessed for more than a day.',
  emailSystemNotifications: 'Mails about your account and the service.',
  emailUnassignedMessages: 'Administrators: a daily count of the organization’s unassigned messages.',
  emailFailedMessagesDigest: 'A daily count of failed messages nobody has acknowledged.',
};

// Not in the spec: the daily time of the reminders and digests, an organization setting its Administrators set.
// GET and PUT /api/organizationsettings/notifications. Time is HH:MM (24 h) in an IANA time zone.
export const DEFAULT_DAILY_NOTIFICATION_TIME = '08:00';
export const DEFAULT_DAILY_NOTIFICATION_TIME_ZONE = 'America/New_York';

export const notificationScheduleMessages = {
  timeInvalid: 'Enter a time of day as HH:MM, for example 08:00.',
  timeZoneInvalid: 'Choose a time zone from the list.',
  saved: 'The notification settings were saved.',
  preferencesSaved: 'Your notification settings were saved.',
} as const;

const isTimeZone = (value: string) => {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
};

export const notificationSchedule = z.object({
  dailyTime: text('Time')
    .trim()
    .max(5)
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, notificationScheduleMessages.timeInvalid),
  timeZone: text('Time zone').trim().min(1, notificationScheduleMessages.timeZoneInvalid).max(64).refine(isTimeZone, notificationScheduleMessages.timeZoneInvalid),
});
export type NotificationSchedule = z.infer<typeof notificationSchedule>;

// Offered in the time-zone select: the US zones first (the product's customers), then the rest of IANA's.
export const US_TIME_ZONES = [
  'America/New_York',
  'America/Chicago',
  'America/Denver',
  'America/Phoenix',
  'America/Los_Angeles',
  'America/Anchorage',
  'Pacific/Honolulu',
  'America/Puerto_Rico',
] as const;

// The mails' texts: counts and a link only, never a subject, patient, sender or file name (issue 13 §5).
export const notificationMails = {
  newMessagesSubject: (count: number) => (count === 1 ? 'You have 1 new message in ClinicRelay' : `You have ${count} new messages in ClinicRelay`),
  unprocessedSubject: (count: number) => (count === 1 ? '1 message in your Intake is waiting to be processed' : `${count} messages in your Intake are waiting to be processed`),
  failedSubject: (count: number) => (count === 1 ? '1 failed message needs your attention' : `${count} failed messages need your attention`),
  unassignedSubject: (count: number) => (count === 1 ? '1 message in your organization is unassigned' : `${count} messages in your organization are unassigned`),
} as const;
