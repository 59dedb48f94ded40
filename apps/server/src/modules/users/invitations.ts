import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import { INVITATIONS_PER_HOUR, invitationMessages, type invitationRequest } from '@clinicrelay/contracts/users.ts';
import type { Database } from '../../db/client.ts';
import { auditedBy, writeAudit } from '../../platform/audit.ts';
import type { OrgCaller } from '../../platform/auth/guard.ts';
import { AppError, badRequest, notFound } from '../../platform/errors.ts';
import { html } from '../../platform/mail/html.ts';
import { queueMail } from '../../platform/mail/outbox.ts';
import type { MailAddress } from '../../platform/mail/settings.ts';
import { organizationWithSettings } from '../organization-settings/service.ts';
import * as q from './queries.ts';
import { appUrl } from '../../platform/mail/layout.ts';

export interface InvitationsDeps {
  db: Database;
  now: () => Date;
  mailFrom: MailAddress;
  publicUrl: string;
}

export const INVITATION_SENT = 'InvitationSent';

const HOUR_MS = 3_600_000;

// The registration page (issue 14) reads the code to prefill its form.
export const registrationLink = (publicUrl: string, code: string) =>
  `${appUrl(publicUrl, '')}/account/register?invitation=${encodeURIComponent(code)}`;

export interface InvitationMailInput {
  brandName: string;
  inviterName: string;
  organizationName: string;
  inviteeName: string;
  directAddress: string | null;
  link: string;
}

// The invitation's subject and bodies: who invites (name and organization), the Direct address to reach them at
// when one was chosen, and the link to register. Every value is escaped in the HTML by html``.
export function invitationMail(m: InvitationMailInput) {
  const subject = `${m.inviterName} invites you to ${m.brandName}`;
  const text = [
    `Hello ${m.inviteeName},`,
    '',
    `${m.inviterName} of ${m.organizationName} invites you to join ${m.brandName}, where healthcare organizations exchange patient documents securely by Direct messaging instead of fax.`,
    '',
    ...(m.directAddress ? [`${m.organizationName} receives Direct messages at ${m.directAddress}.`, ''] : []),
    'Create your account:',
    m.link,
    '',
    `If you were not expecting this invitation, you can ignore this email: no account exists until you register.`,
    '',
  ].join('\n');
  const body = html`<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${subject}</title></head>
<body style="font-family: Arial, Helvetica, sans-serif; font-size: 15px; line-height: 1.5; color: #1a1b1e;">
<p>Hello ${m.inviteeName},</p>
<p><strong>${m.inviterName}</strong> of <strong>${m.organizationName}</strong> invites you to join ${m.brandName}, where healthcare organizations exchange patient documents securely by Direct messaging instead of fax.</p>
${m.directAddress ? html`<p>${m.organizationName} receives Direct messages at <strong>${m.directAddress}</strong>.</p>` : ''}
<p><a href="${m.link}" style="display: inline-block; padding: 10px 18px; background: #1c7ed6; color: #ffffff; text-decoration: none; border-radius: 4px;">Create your account</a></p>
<p style="font-size: 13px; color: #495057;">Or open this link: <a href="${m.link}">${m.link}</a></p>
<p style="font-size: 13px; color: #495057;">If you were not expecting this invitation, you can ignore this email: no account exists until you register.</p>
</body>
</html>
`;
  return { subject, text, html: body };
}

// POST /api/users/sendinvitation (the Send an Invite dialog): stores the invitation, its audit row and its mail in
// one transaction; the send-mail workflow delivers the mail after the commit.
export async function sendInvitation(deps: InvitationsDeps, caller: OrgCaller, body: z.output<typeof invitationRequest>) {
  const userId = caller.session.userId;
  // Direct addresses are stored lower-case; the dialog sends one of the organization's own.
  const directAddress = body.directAddress ? body.directAddress.toLowerCase() : null;
  if (directAddress && !(await q.findDirectSource(deps.db, caller.organizationId, directAddress))) {
    throw badRequest(invitationMessages.directAddressNotOurs, { directAddress: [invitationMessages.directAddressNotOurs] });
  }
  const [inviter, organization] = await Promise.all([q.findUser(deps.db, userId), organizationWithSettings(deps.db, caller.organizationId)]);
  if (!inviter) throw notFound();
  const inviterName = `${inviter.firstName} ${inviter.lastName}`.trim() || inviter.userName;
  const now = deps.now();
  const code = randomBytes(32).toString('base64url');
  const mail = invitationMail({
    brandName: organization.settings.brandName,
    inviterName,
    organizationName: organization.name,
    inviteeName: body.fullName,
    directAddress,
    link: registrationLink(deps.publicUrl, code),
  });

  await deps.db.transaction(async (tx) => {
    // At most INVITATIONS_PER_HOUR (20) per user and organization in any hour: plenty for inviting a practice's partners, too few to spam with.
    await q.lockInvitationsOf(tx, userId);
    const recent = await q.countInvitationsSince(tx, caller.organizationId, userId, new Date(now.getTime() - HOUR_MS));
    if (recent.sent >= INVITATIONS_PER_HOUR) {
      const retryAfterMs = recent.oldest ? recent.oldest.getTime() + HOUR_MS - now.getTime() : HOUR_MS;
      throw new AppError(429, invitationMessages.tooManyInvitations, {}, Math.max(1, Math.ceil(retryAfterMs / 1000)));
    }
    const mailId = await queueMail(tx, {
      kind: 'Invitation',
      organizationId: caller.organizationId,
      from: deps.mailFrom,
      to: { name: body.fullName, address: body.emailAddress },
      // Questions go to the person who invited, not to a no-reply address.
      replyTo: inviter.email || null,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      queuedAt: now,
    });
    const invitation = await q.insertInvitation(tx, {
      organizationId: caller.organizationId,
      invitedBy: userId,
      fullName: body.fullName,
      emailAddress: body.emailAddress,
      directAddress,
      code,
      mailId,
      createdAt: now,
    });
    // Who invited and when; the invitee's name and address stay in the invitation row, not in the audit trail.
    await writeAudit(tx, { eventType: INVITATION_SENT, ...auditedBy(caller), correlationId: invitation.id, details: { mailId, directAddressShared: directAddress !== null } }, now);
  });
  return { message: invitationMessages.sent };
}
