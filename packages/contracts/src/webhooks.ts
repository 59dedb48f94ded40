import { z } from 'zod';
import { addressScope } from './ip-addresses.ts';
import { text } from './text.ts';

// An organization's webhooks (issue 13 §6; end-user §3 "Webhook": has events and authentication types; §7 "Fax and
// other"). The spec names the calls only: the field names, event names and texts below are ours.

// Only the events the product emits are offered (a subscriber to one that never comes would wait forever):
// received: a message arrived in the organization's Intake (transports/local.ts receiveHere);
// delivered / deliveryFailed: one recipient of a sent message settled, once per (recipient, outcome), emitted by the
// transport that settles it (local delivery, Direct timeline, fax); processed: an Intake message was marked processed.
export const webhookEventTypes = ['message.received', 'message.delivered', 'message.deliveryFailed', 'message.processed'] as const;
export type WebhookEventType = (typeof webhookEventTypes)[number];
export const webhookEventNames: Record<WebhookEventType, string> = {
  'message.received': 'Message received',
  'message.delivered': 'Message delivered',
  'message.deliveryFailed': 'Delivery failed',
  'message.processed': 'Message processed',
};

// HMAC-SHA256: the body signed with a secret the server makes and shows once; Bearer: a token the receiver gave;
// Basic: a user name and password the receiver gave.
export const webhookAuthenticationTypes = ['HmacSha256', 'Bearer', 'Basic'] as const;
export type WebhookAuthenticationType = (typeof webhookAuthenticationTypes)[number];
export const webhookAuthenticationNames: Record<WebhookAuthenticationType, string> = {
  HmacSha256: 'HMAC-SHA256 signature',
  Bearer: 'Bearer token',
  Basic: 'Basic authentication',
};

// The headers every delivery carries; the signature is `sha256=<hex HMAC-SHA256 of the raw body>`.
export const WEBHOOK_SIGNATURE_HEADER = 'x-clinicrelay-signature';
export const WEBHOOK_EVENT_ID_HEADER = 'x-clinicrelay-event-id';

export const webhookMessages = {
  empty: 'No webhooks yet. Add one to tell another system when messages arrive.',
  urlInvalid: 'Enter an https:// URL (http:// only for localhost).',
  urlPrivate: 'This URL points into a private network. Enter an address the internet can reach.',
  urlLoopback: 'This URL points to this server. Enter an address the internet can reach.',
  eventsRequired: 'Choose at least one event.',
  tokenRequired: 'Bearer token is required.',
  userNameRequired: 'User name is required.',
  passwordRequired: 'Password is required.',
  saved: 'The webhook was saved.',
  deleted: 'The webhook was deleted.',
  secretOnce: 'Copy this secret now: it is shown only once. Verify each delivery’s x-clinicrelay-signature header with it.',
  disabledAfterFailures: 'Disabled after a day of failed deliveries.',
} as const;

// Said in the attempt log by the try that paused a webhook after failed tries in a row (issue 26), and on its badge.
export const webhookPausedNote = (until: string) => `Deliveries are paused after repeated failures; one will be tried again at ${until}.`;

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

// A host that is this machine by name or address ('localhost', 'x.localhost', 127.0.0.0/8, ::1): refused in production.
export function isLoopbackWebhookHost(value: string): boolean {
  let host: string;
  try {
    host = new URL(value).hostname.toLowerCase().replace(/\.$/, '');
  } catch {
    return false;
  }
  return host === 'localhost' || host.endsWith('.localhost') || addressScope(host) === 'loopback';
}

// https anywhere; http only to a loopback host (end-user §5 allows a local development host).
export function isWebhookUrl(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.username || url.password) return false;
  if (url.protocol === 'https:') return true;
  return url.protocol === 'http:' && (LOOPBACK_HOSTS.has(url.hostname) || /^127\.\d+\.\d+\.\d+$/.test(url.hostname));
}

// A URL whose host is an IP address of a private, link-local, metadata or unspecified network is refused (the server
// would call into its own network); loopback stays allowed for a local development receiver. Host names are checked
// when a delivery resolves them (server: modules/webhooks/guarded-post.ts).
export function isPublicWebhookHost(value: string): boolean {
  let host: string;
  try {
    host = new URL(value).hostname;
  } catch {
    return true;
  }
  return addressScope(host) !== 'private';
}

export const webhookEventType = z.enum(webhookEventTypes);
export const webhookAuthenticationType = z.enum(webhookAuthenticationTypes);
export const webhookDeliveryStatus = z.enum(['Pending', 'Delivered', 'Failed', 'Skipped']);

export const namedValue = z.object({ value: text(), name: text() });
export const webhookParams = z.object({ id: text().uuid() });

export const webhookSummary = z.object({
  id: text(),
  url: text(),
  events: z.array(webhookEventType),
  authenticationType: webhookAuthenticationType,
  isEnabled: z.boolean(),
  disabledReason: text().nullable(),
  lastDeliveryStatus: webhookDeliveryStatus.nullable(),
  lastDeliveryAt: text().nullable(),
  // Failed tries in a row, and until when deliveries wait (the circuit: then one is tried).
  consecutiveFailures: z.number().int(),
  pausedUntil: text().nullable(),
  createdAt: text(),
});
export type WebhookSummary = z.infer<typeof webhookSummary>;

export const webhookAttempt = z.object({
  id: text(),
  eventId: text(),
  eventType: webhookEventType,
  attempt: z.number().int(),
  attemptedAt: text(),
  statusCode: z.number().int().nullable(),
  error: text().nullable(),
  durationMs: z.number().int(),
});
export type WebhookAttempt = z.infer<typeof webhookAttempt>;

// GET /api/webhooks/{id}: the webhook, the Basic user name (never a password or token), and its 50 latest attempts.
export const webhookDetail = webhookSummary.extend({ userName: text().nullable(), attempts: z.array(webhookAttempt) });
export type WebhookDetail = z.infer<typeof webhookDetail>;

// PUT /api/webhooks/ answers with the webhook; `secret` only when the server made a new HMAC secret (shown once).
export const webhookSaved = webhookSummary.extend({ secret: text().optional() });
export type WebhookSaved = z.infer<typeof webhookSaved>;

// Without an id: a new webhook. Credentials left out on an update keep the stored ones.
export const webhookBody = z
  .object({
    id: text().uuid().optional(),
    url: text('URL').trim().min(1, 'URL is required.').max(2000).refine(isWebhookUrl, webhookMessages.urlInvalid).refine(isPublicWebhookHost, webhookMessages.urlPrivate),
    events: z.array(webhookEventType).min(1, webhookMessages.eventsRequired).max(webhookEventTypes.length),
    authenticationType: webhookAuthenticationType,
    isEnabled: z.boolean().default(true),
    token: text('Bearer token').max(2000).optional(),
    userName: text('User name').max(256).optional(),
    password: text('Password').max(256).optional(),
  })
  .superRefine((body, ctx) => {
    const creating = !body.id;
    if (body.authenticationType === 'Bearer' && creating && !body.token) ctx.addIssue({ code: 'custom', path: ['token'], message: webhookMessages.tokenRequired });
    if (body.authenticationType === 'Basic' && !body.userName) ctx.addIssue({ code: 'custom', path: ['userName'], message: webhookMessages.userNameRequired });
    if (body.authenticationType === 'Basic' && creating && !body.password) ctx.addIssue({ code: 'custom', path: ['password'], message: webhookMessages.passwordRequired });
  });
export type WebhookBody = z.input<typeof webhookBody>;
