import { notificationMails } from '@clinicrelay/contracts/notifications.ts';
import { html } from '../../platform/mail/html.ts';
import { appUrl } from '../../platform/mail/layout.ts';

// The notification mails: a count and a link, never a subject, patient, sender or file name (issue 13 §5). The link
// takes the user to the product, where they sign in to see the messages.

export type NotificationKind = 'NewMessages' | 'UnprocessedReminder' | 'FailedMessagesDigest' | 'UnassignedMessages';

const baseUrl = (publicUrl: string) => appUrl(publicUrl, '');

function build(publicUrl: string, subject: string, intro: string, linkLabel: string, path: string) {
  const base = baseUrl(publicUrl);
  const link = `${base}${path}`;
  const settings = `${base}/settings/notifications`;
  const footer = 'You receive this mail because of your notification settings in ClinicRelay. To change them:';
  const text = [intro, '', `${linkLabel}: ${link}`, '', footer, settings, ''].join('\n');
  const body = html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${subject}</title></head>
<body style="font-family: Arial, Helvetica, sans-serif; font-size: 15px; line-height: 1.5; color: #1a1b1e;">
<p>${intro}</p>
<p><a href="${link}">${linkLabel}</a></p>
<p style="font-size: 13px; color: #5c5f66;">${footer} <a href="${settings}">Notification settings</a></p>
</body></html>
`;
  return { subject, text, html: body };
}

export function notificationMail(kind: NotificationKind, count: number, publicUrl: string) {
  switch (kind) {
    case 'NewMessages': {
      const subject = notificationMails.newMessagesSubject(count);
      return build(publicUrl, subject, `${subject}. Sign in to read ${count === 1 ? 'it' : 'them'} in your Intake.`, 'Open Intake', '/intake');
    }
    case 'UnprocessedReminder': {
      const subject = notificationMails.unprocessedSubject(count);
      return build(publicUrl, subject, `${subject}: received more than a day ago and not yet processed.`, 'Open Intake', '/intake');
    }
    case 'FailedMessagesDigest': {
      const subject = notificationMails.failedSubject(count);
      return build(publicUrl, subject, `${subject}: ${count === 1 ? 'it has' : 'they have'} failed and nobody has acknowledged ${count === 1 ? 'it' : 'them'} yet.`, 'Open Intake', '/intake');
    }
    case 'UnassignedMessages': {
      const subject = notificationMails.unassignedSubject(count);
      return build(publicUrl, subject, `${subject}: received in the last 30 days and not assigned to anyone.`, 'Open the unassigned messages', '/intake?assign=unassigned');
    }
  }
}
