import { organizationQueueLabels, type OrganizationQueue } from '@clinicrelay/contracts/organizations.ts';
import type { DbOrTx } from '../../db/client.ts';
import { html } from '../../platform/mail/html.ts';
import { queueMail } from '../../platform/mail/outbox.ts';
import type { MailAddress } from '../../platform/mail/settings.ts';
import * as q from './queries.ts';
import { appUrl } from '../../platform/mail/layout.ts';

export interface OperatorNoticeDeps {
  mailFrom: MailAddress;
  publicUrl: string;
}

const WHAT: Record<OrganizationQueue, { subject: (name: string) => string; line: (name: string) => string; action: string }> = {
  awaitingActivation: {
    subject: (name) => `${name} is waiting for activation`,
    line: (name) => `${name} has completed onboarding (terms accepted, identity verified) and is waiting to be activated.`,
    action: 'Activate it from the Organizations list (Status: Awaiting activation).',
  },
  awaitingReview: {
    subject: (name) => `${name}: an identification is waiting for review`,
    line: (name) => `An administrator of ${name} did not pass the identity check and uploaded an identification instead.`,
    action: "Review it under Users (ID Proofing: Show Identification), then set the user's ID proofing status.",
  },
};

/**
 * Mails every system administrator that an organization joined one of their queues (issue 26 §3b "Nobody is told a
 * clinic is waiting"). Runs in the caller's transaction: the mails exist exactly when the change commits.
 */
export async function notifyOperators(tx: DbOrTx, deps: OperatorNoticeDeps, organizationId: string, queue: OrganizationQueue) {
  const organization = await q.findById(tx, organizationId);
  if (!organization) return 0;
  const name = organization.organization.name;
  const operators = await q.findSystemAdministrators(tx);
  const base = appUrl(deps.publicUrl, '');
  const link = `${base}/admin/organizations?status=${queue}`;
  const what = WHAT[queue];
  const subject = what.subject(name);
  for (const operator of operators) {
    const text = [`Hello ${operator.fullName},`, '', what.line(name), '', what.action, '', `${organizationQueueLabels[queue]}: ${link}`, ''].join('\n');
    const body = html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${subject}</title></head>
<body style="font-family: Arial, Helvetica, sans-serif; font-size: 15px; line-height: 1.5; color: #1a1b1e;">
<p>Hello ${operator.fullName},</p>
<p>${what.line(name)}</p>
<p>${what.action}</p>
<p><a href="${link}">${organizationQueueLabels[queue]}</a></p>
</body></html>
`;
    await queueMail(tx, { kind: queue === 'awaitingActivation' ? 'OrganizationAwaitingActivation' : 'OrganizationAwaitingReview', organizationId, from: deps.mailFrom, to: { name: operator.fullName, address: operator.email }, subject, text, html: body });
  }
  return operators.length;
}
