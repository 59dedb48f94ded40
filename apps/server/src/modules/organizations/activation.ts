import type { z } from 'zod';
import { sendingTexts, type activationRequest, type SendingStatus } from '@clinicrelay/contracts/organizations.ts';
import type { DbOrTx } from '../../db/client.ts';
import { auditedByAdmin, writeAudit } from '../../platform/audit.ts';
import type { AdminCaller, OrgCaller } from '../../platform/auth/guard.ts';
import { notFound } from '../../platform/errors.ts';
import { html } from '../../platform/mail/html.ts';
import { queueMail } from '../../platform/mail/outbox.ts';
import { findUsable } from '../certificates/queries.ts';
import * as q from './queries.ts';
import { provisionOnActivation } from './provisioning.ts';
import { getOrganization, type OrganizationsDeps } from './service.ts';
import { appUrl } from '../../platform/mail/layout.ts';

// Addresses that can sign for Direct recipients at other HISPs (an enabled certificate, valid now); the others
// reach this installation's organizations only until a certificate is imported.
async function addressesWithoutCertificate(db: DbOrTx, addresses: string[], now: Date) {
  const missing: string[] = [];
  for (const address of addresses) {
    const rows = await findUsable(db, address, 'signing');
    if (!rows.some((r) => r.notBefore <= now && now < r.notAfter)) missing.push(address);
  }
  return missing;
}

/** The organization's Direct addresses in service and, in the words the activation mail uses, what is still pending. */
export async function sendingStatusOf(db: DbOrTx, organizationId: string, now: Date): Promise<SendingStatus> {
  const addresses = await q.findDirectAddressesInService(db, organizationId);
  const uncertified = await addressesWithoutCertificate(db, addresses, now);
  const brandId = (await q.findById(db, organizationId))?.organization.brandId;
  const brand = (brandId && (await q.brandName(db, brandId))) || 'ClinicRelay';
  const pending = addresses.length === 0 ? [sendingTexts.noAddress] : uncertified.length > 0 ? [sendingTexts.needsCertificate(uncertified, brand)] : [];
  return { addresses: addresses.map((fullAddress) => ({ fullAddress, hasCertificate: !uncertified.includes(fullAddress) })), pending };
}

/** GET /api/organization/sendingstatus (not in the spec): the caller's organization, for its Administrators' dashboard. */
export const sendingStatus = (deps: Pick<OrganizationsDeps, 'db' | 'now'>, caller: OrgCaller) => sendingStatusOf(deps.db, caller.organizationId, deps.now());

export async function setActivation(deps: OrganizationsDeps, caller: AdminCaller, id: string, body: z.output<typeof activationRequest>) {
  const admins = body.activated && body.sendEmail ? await q.findAdministrators(deps.db, id) : [];
  await deps.db.transaction(async (tx) => {
    const current = await q.lockOrganization(tx, id);
    if (!current) throw notFound();
    await q.updateOrganization(tx, id, { isActivated: body.activated, modifiedBy: caller.session.userId, modifiedAt: deps.now() });
    const recordsAddress = body.activated ? await provisionOnActivation(tx, current, deps.publicUrl, body.seedRecords) : null;
    const status = admins.length > 0 ? await sendingStatusOf(tx, id, deps.now()) : null;
    const brand = (current.brandId && (await q.brandName(tx, current.brandId))) || 'ClinicRelay';
    for (const admin of admins) {
      const mail = activationMail({ brand, organizationName: current.name, name: admin.fullName || admin.userName, publicUrl: deps.appUrl, status: status! });
      await queueMail(tx, { kind: 'OrganizationActivated', organizationId: id, from: deps.mailFrom, to: { name: admin.fullName, address: admin.email }, ...mail });
    }
    await writeAudit(tx, {
      eventType: body.activated ? 'OrganizationActivated' : 'OrganizationDeactivated',
      ...auditedByAdmin(caller),
      details: { organizationId: id, emailsQueued: admins.length, ...(recordsAddress ? { recordsAddress } : {}) },
    });
  });
  return getOrganization(deps, id);
}

// The mail says what the clinic can do now, and exactly what is still pending when something is.
function activationMail(m: { brand: string; organizationName: string; name: string; publicUrl: string; status: SendingStatus }) {
  const link = appUrl(m.publicUrl, '');
  const subject = `${m.organizationName} is now active on ${m.brand}`;
  const addresses = m.status.addresses.map((a) => a.fullAddress);
  const lines =
    addresses.length === 0
      ? [`${m.organizationName} has been activated on ${m.brand}.`]
      : [
          `${m.organizationName} has been activated on ${m.brand}: you and your users can now send and receive documents in Release and Intake.`,
          `Your Direct address${addresses.length > 1 ? 'es' : ''}: ${addresses.join(', ')}.`,
        ];
  lines.push(...m.status.pending.map((p) => `${sendingTexts.title}: ${p}`));
  const textBody = [`Hello ${m.name},`, '', ...lines.flatMap((l) => [l, '']), `Sign in: ${link}`, ''].join('\n');
  const paragraphs = lines.map((l) => html`<p>${l}</p>`);
  const body = html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${subject}</title></head>
<body style="font-family: Arial, Helvetica, sans-serif; font-size: 15px; line-height: 1.5; color: #1a1b1e;">
<p>Hello ${m.name},</p>
${paragraphs}
<p><a href="${link}">Sign in</a></p>
</body></html>
`;
  return { subject, text: textBody, html: body };
}
