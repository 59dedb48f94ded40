import { randomBytes, randomUUID } from 'node:crypto';
import {
  webhookAuthenticationNames,
  webhookAuthenticationTypes,
  webhookEventNames,
  webhookEventTypes,
  type WebhookDetail,
  type WebhookEventType,
  type WebhookSaved,
  type WebhookSummary,
  isLoopbackWebhookHost,
  webhookBody,
  webhookMessages,
} from '@clinicrelay/contracts/webhooks.ts';
import type { z } from 'zod';
import type { Database } from '../../db/client.ts';
import { auditedBy, writeAudit } from '../../platform/audit.ts';
import type { OrgCaller } from '../../platform/auth/guard.ts';
import { badRequest, notFound } from '../../platform/errors.ts';
import { resetCircuit } from './circuit.ts';
import * as q from './queries.ts';
import { openWebhookSecret, sealWebhookSecret } from './secrets.ts';

export interface WebhooksDeps {
  db: Database;
  now: () => Date;
  // BLOB_ENCRYPTION_KEY: credentials are sealed at rest under a key derived from it (secrets.ts).
  secretKey: Uint8Array;
  // Loopback URLs (a local development receiver): refused in production.
  allowLoopback: boolean;
}

type Body = z.output<typeof webhookBody>;

const iso = (at: Date | null) => (at ? at.toISOString() : null);

function summary(row: q.WebhookRow): WebhookSummary {
  return {
    id: row.id,
    url: row.url,
    events: row.events as WebhookEventType[],
    authenticationType: row.authenticationType,
    isEnabled: row.isEnabled,
    disabledReason: row.disabledReason,
    lastDeliveryStatus: row.lastDeliveryStatus,
    lastDeliveryAt: iso(row.lastDeliveryAt),
    consecutiveFailures: row.consecutiveFailures,
    pausedUntil: iso(row.pausedUntil),
    createdAt: row.createdAt.toISOString(),
  };
}

export const eventTypes = () => webhookEventTypes.map((value) => ({ value, name: webhookEventNames[value] }));
export const authenticationTypes = () => webhookAuthenticationTypes.map((value) => ({ value, name: webhookAuthenticationNames[value] }));

export async function list(deps: WebhooksDeps, caller: OrgCaller): Promise<WebhookSummary[]> {
  return (await q.findPage(deps.db, caller.organizationId)).map(summary);
}

export async function get(deps: WebhooksDeps, caller: OrgCaller, id: string): Promise<WebhookDetail> {
  const row = await q.findById(deps.db, caller.organizationId, id);
  if (!row) throw notFound();
  const attempts = await q.findRecentAttempts(deps.db, row.id);
  return {
    ...summary(row),
    userName: row.authenticationType === 'Basic' ? row.userName : null,
    attempts: attempts.map((a) => ({ ...a, eventType: a.eventType as WebhookEventType, attemptedAt: a.attemptedAt.toISOString() })),
  };
}

const newSecret = () => `whsec_${randomBytes(32).toString('base64url')}`;

// Create (no id) or update. An HMAC secret is made by the server and answered once: on creation, or when a webhook
// changes to HMAC. Re-enabling a webhook clears the reason it was disabled.
export async function save(deps: WebhooksDeps, caller: OrgCaller, body: Body): Promise<WebhookSaved> {
  const now = deps.now();
  // The server itself is not a receiver in production: its other ports would answer (issue 26).
  if (!deps.allowLoopback && isLoopbackWebhookHost(body.url)) throw badRequest(webhookMessages.urlLoopback, { url: [webhookMessages.urlLoopback] });
  return deps.db.transaction(async (tx) => {
    const existing = body.id ? await q.findById(tx, caller.organizationId, body.id) : undefined;
    if (body.id && !existing) throw notFound();
    const id = existing?.id ?? randomUUID();
    let secret: string | undefined;
    let stored = existing ? openWebhookSecret(deps.secretKey, existing) : undefined;
    if (body.authenticationType === 'HmacSha256') {
      if (existing?.authenticationType !== 'HmacSha256') stored = secret = newSecret();
    } else if (body.authenticationType === 'Bearer') {
      if (body.token) stored = body.token;
      else if (existing?.authenticationType !== 'Bearer') stored = undefined;
    } else if (body.password) stored = body.password;
    else if (existing?.authenticationType !== 'Basic') stored = undefined;
    // The contract asks for credentials on creation; an update that changes the type must bring them too.
    if (stored === undefined) {
      const field = body.authenticationType === 'Bearer' ? 'token' : 'password';
      const message = body.authenticationType === 'Bearer' ? webhookMessages.tokenRequired : webhookMessages.passwordRequired;
      throw badRequest(message, { [field]: [message] });
    }
    const values = {
      url: body.url,
      events: body.events,
      authenticationType: body.authenticationType,
      secret: sealWebhookSecret(deps.secretKey, id, stored),
      userName: body.authenticationType === 'Basic' ? (body.userName ?? null) : null,
      isEnabled: body.isEnabled,
      ...(body.isEnabled ? { disabledReason: null } : {}),
      // Re-enabled, or pointed at another receiver: the failures so far say nothing about it.
      ...(existing && (existing.url !== body.url || (!existing.isEnabled && body.isEnabled)) ? resetCircuit : {}),
      updatedAt: now,
    };
    const row = existing ? await q.update(tx, existing.id, values) : await q.insert(tx, { ...values, id, organizationId: caller.organizationId, createdAt: now });
    await writeAudit(tx, {
      eventType: existing ? 'WebhookUpdated' : 'WebhookCreated',
      ...auditedBy(caller),
      details: { webhookId: row.id, url: row.url, events: row.events, authenticationType: row.authenticationType, isEnabled: row.isEnabled, secretIssued: secret !== undefined },
    });
    return { ...summary(row), ...(secret ? { secret } : {}) };
  });
}

export async function remove(deps: WebhooksDeps, caller: OrgCaller, id: string): Promise<void> {
  await deps.db.transaction(async (tx) => {
    if (!(await q.remove(tx, caller.organizationId, id))) throw notFound();
    await writeAudit(tx, { eventType: 'WebhookDeleted', ...auditedBy(caller), details: { webhookId: id } });
  });
}
