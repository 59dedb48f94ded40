import { createHmac, randomUUID } from 'node:crypto';
import { WEBHOOK_EVENT_ID_HEADER, WEBHOOK_SIGNATURE_HEADER, webhookMessages, webhookPausedNote, type WebhookEventType } from '@clinicrelay/contracts/webhooks.ts';
import type { Database, DbOrTx } from '../../db/client.ts';
import { html } from '../../platform/mail/html.ts';
import { queueMail } from '../../platform/mail/outbox.ts';
import type { MailAddress } from '../../platform/mail/settings.ts';
import { WorkflowDeferred, type WorkflowHandler } from '../../platform/workflows/context.ts';
import { enqueue } from '../../platform/workflows/enqueue.ts';
import { circuitWait, closeCircuit, countFailure } from './circuit.ts';
import { guardedPost, type PostResult, type ResolveHost } from './guarded-post.ts';
import * as q from './queries.ts';
import { openWebhookSecret } from './secrets.ts';
import { appUrl } from '../../platform/mail/layout.ts';

export const WEBHOOK_DELIVERY_WORKFLOW = 'webhook-delivery';

// Tries go on for a day after the event; then the delivery fails and the webhook is disabled.
export const WEBHOOK_RETRY_WINDOW_MS = 24 * 60 * 60_000;
const FIRST_RETRY_MS = 30_000;
const MAX_RETRY_MS = 60 * 60_000;
// Connect and answer (issue 26): a receiver that hangs holds a webhook worker this long at most.
const DEFAULT_TIMEOUT_MS = 5_000;

// Wait before try n + 1 after try n failed: 30 s, 1 min, 2 min, … at most an hour.
export const webhookBackoffMs = (attempt: number): number => Math.min(FIRST_RETRY_MS * 2 ** (attempt - 1), MAX_RETRY_MS);

export interface WebhookEvent {
  organizationId: string;
  type: WebhookEventType;
  messageId: string;
  // One recipient of a sent message (delivered / deliveryFailed).
  deliveryId?: string;
  occurredAt?: Date;
}

// Called inside the transaction that makes the event happen, so the event (its id made here, once) commits with it:
// one delivery row and one workflow per subscribed webhook. Returns the event id, or null when nobody subscribes.
export async function emitWebhookEvent(tx: DbOrTx, event: WebhookEvent): Promise<string | null> {
  const subscribers = await q.findSubscribers(tx, event.organizationId, event.type);
  if (subscribers.length === 0) return null;
  const eventId = randomUUID();
  const occurredAt = event.occurredAt ?? new Date();
  // ids and the event type only: never a subject, patient or file name.
  const payload = { id: eventId, type: event.type, occurredAt: occurredAt.toISOString(), organizationId: event.organizationId, data: { messageId: event.messageId, ...(event.deliveryId ? { deliveryId: event.deliveryId } : {}) } };
  for (const hook of subscribers) {
    const delivery = await q.insertDelivery(tx, { webhookId: hook.id, organizationId: event.organizationId, eventId, eventType: event.type, payload, occurredAt });
    await enqueue(tx, { type: WEBHOOK_DELIVERY_WORKFLOW, organizationId: event.organizationId, correlationId: delivery.id, payload: { deliveryId: delivery.id, attempt: 1 } });
  }
  return eventId;
}

// A recipient of a sent message settled: called by each transport in the transaction whose conditional update (still
// Pending) made the change, and only when a row changed, so each (recipient, outcome) is emitted once.
export function emitDeliveryOutcome(tx: DbOrTx, delivery: { id: string; organizationId: string; messageId: string }, outcome: 'Delivered' | 'Failed', at: Date) {
  return emitWebhookEvent(tx, {
    organizationId: delivery.organizationId,
    type: outcome === 'Delivered' ? 'message.delivered' : 'message.deliveryFailed',
    messageId: delivery.messageId,
    deliveryId: delivery.id,
    occurredAt: at,
  });
}

export const webhookSignature = (secret: string, body: string) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

function authorizationHeaders(hook: q.WebhookRow, secret: string, body: string): Record<string, string> {
  switch (hook.authenticationType) {
    case 'HmacSha256':
      return { [WEBHOOK_SIGNATURE_HEADER]: webhookSignature(secret, body) };
    case 'Bearer':
      return { authorization: `Bearer ${secret}` };
    case 'Basic':
      return { authorization: `Basic ${Buffer.from(`${hook.userName ?? ''}:${secret}`).toString('base64')}` };
  }
}

export interface WebhookDeliveryDeps {
  db: Database;
  now: () => Date;
  mailFrom: MailAddress;
  publicUrl: string;
  // BLOB_ENCRYPTION_KEY: the stored credentials are sealed under a key derived from it (secrets.ts).
  secretKey: Uint8Array;
  timeoutMs?: number;
  // Loopback receivers (development): refused in production, like the private network.
  allowLoopback?: boolean;
  // Tests: a resolver that asks their own DNS server.
  resolveHost?: ResolveHost;
}

// The 'webhook-delivery' workflow: one try per run. A failed try schedules the next one as a new workflow with
// enqueue's runAfter (no run sleeps); a run repeated after its worker died re-sends the same event id and body, and
// the try is recorded only once (the delivery's attempts counter guards it).
export function webhookDeliveryWorkflow(deps: WebhookDeliveryDeps): WorkflowHandler {
  return async (ctx) => {
    const { deliveryId, attempt } = ctx.workflow.payload as { deliveryId?: string; attempt?: number };
    if (!deliveryId || !attempt) return;
    const delivery = await q.findDelivery(deps.db, deliveryId);
    if (!delivery || delivery.status !== 'Pending' || delivery.attempts >= attempt) return;
    const hook = await q.findWebhook(deps.db, delivery.webhookId);
    if (!hook?.isEnabled) {
      await q.updateDelivery(deps.db, deliveryId, { status: 'Skipped', completedAt: deps.now() });
      return;
    }
    // A paused webhook's deliveries wait for the pause to end without spending a try.
    const wait = await circuitWait(deps.db, hook, deps.now());
    if (wait) throw new WorkflowDeferred(wait);
    const body = JSON.stringify(delivery.payload);
    const started = Date.now();
    const result: PostResult = await guardedPost({
      url: hook.url,
      headers: {
        'content-type': 'application/json',
        'user-agent': 'ClinicRelay-Webhooks/1',
        [WEBHOOK_EVENT_ID_HEADER]: delivery.eventId,
        ...authorizationHeaders(hook, openWebhookSecret(deps.secretKey, hook), body),
      },
      body,
      signal: ctx.signal,
      timeoutMs: deps.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      allowLoopback: deps.allowLoopback ?? false,
      ...(deps.resolveHost ? { resolveHost: deps.resolveHost } : {}),
    });
    const durationMs = Date.now() - started;
    const now = deps.now();
    const delivered = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
    // A day since the event, or a day of failures in a row (a paused webhook's deliveries do not all try).
    const failingFor = now.getTime() - (hook.failingSince ?? now).getTime();
    const gaveUp = !delivered && (now.getTime() - delivery.occurredAt.getTime() >= WEBHOOK_RETRY_WINDOW_MS || failingFor >= WEBHOOK_RETRY_WINDOW_MS);
    const status = delivered ? 'Delivered' : gaveUp ? 'Failed' : 'Pending';
    await deps.db.transaction(async (tx) => {
      const nextAttemptAt = status === 'Pending' ? new Date(now.getTime() + webhookBackoffMs(attempt)) : null;
      const recorded = await q.recordAttempt(
        tx,
        deliveryId,
        attempt,
        { status, nextAttemptAt, completedAt: status === 'Pending' ? null : now },
        { webhookId: hook.id, attemptedAt: now, statusCode: result.statusCode, error: result.error, durationMs },
      );
      if (!recorded) return;
      if (delivered) await closeCircuit(tx, hook, WEBHOOK_DELIVERY_WORKFLOW);
      else {
        const pausedUntil = await countFailure(tx, hook, now);
        if (pausedUntil) await q.noteOnAttempt(tx, deliveryId, attempt, ` ${webhookPausedNote(pausedUntil.toISOString())}`);
      }
      await q.update(tx, hook.id, {
        lastDeliveryStatus: status === 'Pending' ? 'Failed' : status,
        lastDeliveryAt: now,
        ...(gaveUp ? { isEnabled: false, disabledReason: webhookMessages.disabledAfterFailures } : {}),
      });
      if (gaveUp) {
        for (const admin of await q.findAdministrators(tx, delivery.organizationId)) {
          await queueMail(tx, { kind: 'WebhookDisabled', organizationId: delivery.organizationId, from: deps.mailFrom, to: { name: admin.fullName, address: admin.email }, ...disabledMail(hook.url, deps.publicUrl), queuedAt: now });
        }
      }
      if (nextAttemptAt) {
        await enqueue(tx, { type: WEBHOOK_DELIVERY_WORKFLOW, organizationId: delivery.organizationId, correlationId: deliveryId, payload: { deliveryId, attempt: attempt + 1 }, runAfter: nextAttemptAt });
      }
    });
  };
}

// Names the URL only (no message, patient or event content): the Administrator fixes the receiver and re-enables it.
function disabledMail(url: string, publicUrl: string) {
  const link = `${appUrl(publicUrl, '')}/settings/webhooks`;
  const subject = 'A webhook was disabled';
  const intro = `The webhook to ${url} has failed every delivery for a day and was disabled. Check the receiver, then enable the webhook again in Settings.`;
  const text = [intro, '', `Webhooks: ${link}`, ''].join('\n');
  const body = html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${subject}</title></head>
<body style="font-family: Arial, Helvetica, sans-serif; font-size: 15px; line-height: 1.5; color: #1a1b1e;">
<p>${intro}</p>
<p><a href="${link}">Webhooks</a></p>
</body></html>
`;
  return { subject, text, html: body };
}
