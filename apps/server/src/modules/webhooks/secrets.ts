import { openText, sealText } from '../../platform/sealed-text.ts';

// A webhook's HMAC secret, bearer token or Basic password at rest, sealed under its own key with the webhook's id as
// associated data. Rows written before sealing hold the plain value: read as they are, sealed when the webhook is next
// saved (no data migration: the key is not in the database, so SQL cannot seal them).
const PURPOSE = 'webhook-secrets';

export const sealWebhookSecret = (key: Uint8Array, webhookId: string, plain: string) => sealText(key, PURPOSE, plain, webhookId);

export const openWebhookSecret = (key: Uint8Array, row: { id: string; secret: string }) => openText(key, PURPOSE, row.secret, row.id);
