import { z } from 'zod';
import { pageOf, pageQuery } from './paging.ts';
import { text } from './text.ts';

// Issue 12 §1: the trust anchors and trust bundles of this HISP. Not in the spec: the calls sit beside the spec's
// certificates calls (/api/configuration/anchors and /api/configuration/bundles), SysAdmin only, and the screen is
// /admin/trust-anchors; every wording below is ours.
export const trustAnchorMessages = {
  anchorSaved: 'The trust anchor was saved.',
  anchorDeleted: 'The trust anchor was deleted.',
  bundleSaved: 'The trust bundle was saved.',
  bundleDeleted: 'The trust bundle was deleted.',
  bundleRefreshed: 'The trust bundle was refreshed.',
  refreshFailed: 'The trust bundle could not be refreshed',
  refreshFromFile: 'A bundle read from a file has no URL to refresh from; add the new file as another bundle and delete this one.',
  fromBundle: 'Anchors from a trust bundle change with the bundle.',
  duplicate: 'This certificate is already a trust anchor.',
  anchorFileRequired: 'You must select a .cer, .crt, .der or .pem file.',
  anchorFileTooLarge: 'The certificate file must be at most 1 MB.',
  notACertificate: 'The file is not an X.509 certificate (DER or PEM).',
  severalCertificates: 'The file holds more than one certificate; add each certificate authority on its own, or add the file as a trust bundle.',
  notACertificateAuthority: 'The certificate is not a certificate authority: it is neither marked as one (basic constraints) nor self-signed.',
  expired: 'The certificate has expired.',
  directionRequired: 'Choose incoming, outgoing or both.',
  domainInvalid: 'Domain must be a domain name, such as direct.example.org.',
  urlInvalid: 'URL must be an http:// or https:// address.',
  bundleSourceRequired: 'Give the URL of the bundle or choose a .p7b, .p7c or .pem file.',
  bundleFileRequired: 'You must select a .p7b, .p7c or .pem file.',
  urlRequired: 'URL is required.',
  bundleSourceBoth: 'Give the URL of the bundle or a file, not both.',
  bundleFileTooLarge: 'The bundle must be at most 10 MB.',
  notABundle: 'The file is not a PKCS#7 certificate bundle (.p7b, .p7c, or PEM).',
  emptyBundle: 'The bundle holds no certificates.',
  nameTaken: 'A trust bundle with this name already exists, please enter a different one.',
} as const;

export const TRUST_NAME_MAX = 127;
export const TRUST_URL_MAX = 2048;
// A CA certificate is a few kilobytes; a community's bundle (hundreds of anchors) stays well under 10 MB.
export const MAX_ANCHOR_FILE_BYTES = 1024 * 1024;
export const MAX_BUNDLE_BYTES = 10 * 1024 * 1024;
export const ANCHOR_FILE_EXTENSIONS = ['.cer', '.crt', '.der', '.pem'] as const;
export const BUNDLE_FILE_EXTENSIONS = ['.p7b', '.p7c', '.pem'] as const;
export const REFRESH_INTERVAL_MINUTES = { min: 15, max: 10_080, default: 1440 } as const;

// A DNS name of two labels or more: letters, digits and inner hyphens, 63 characters a label.
const DOMAIN_PATTERN = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

export const trustName = text('Name').trim().min(1).max(TRUST_NAME_MAX);
// Empty means every Direct domain hosted here (stored as null); a domain is kept lower-case.
export const trustDomain = text('Domain')
  .trim()
  .max(253)
  .transform((v) => v.toLowerCase())
  .refine((v) => v === '' || DOMAIN_PATTERN.test(v), trustAnchorMessages.domainInvalid)
  .transform((v) => (v === '' ? null : v));
const optionalDomain = trustDomain.nullish().transform((v) => v ?? null);
const isWebAddress = (v: string) => URL.canParse(v) && ['http:', 'https:'].includes(new URL(v).protocol);
// Empty means none: the bundle is read from a file (stored as null).
export const trustUrl = text('URL')
  .trim()
  .max(TRUST_URL_MAX)
  .refine((v) => v === '' || isWebAddress(v), trustAnchorMessages.urlInvalid)
  .transform((v) => (v === '' ? null : v));
export const refreshIntervalMinutes = z.coerce
  .number({ error: 'Refresh interval must be a number of minutes.' })
  .int()
  .min(REFRESH_INTERVAL_MINUTES.min, `Refresh interval must be at least ${REFRESH_INTERVAL_MINUTES.min} minutes.`)
  .max(REFRESH_INTERVAL_MINUTES.max, `Refresh interval must be at most ${REFRESH_INTERVAL_MINUTES.max} minutes (a week).`);

/** An anchor or bundle serves incoming mail, outgoing mail or both, never neither. */
export const withDirection = <T extends z.ZodType<{ incoming: boolean; outgoing: boolean }>>(schema: T) =>
  schema.refine((v) => v.incoming || v.outgoing, { message: trustAnchorMessages.directionRequired, path: ['incoming'] });

// Multipart forms send booleans as text; an absent one means yes.
const formBoolean = z.enum(['true', 'false']).default('true').transform((v) => v === 'true');

export const trustIdParams = z.object({ id: text().uuid() });
export const trustAnchorQuery = pageQuery;
export const trustBundleQuery = pageQuery;

export const trustAnchorFields = z.object({ name: trustName, domain: optionalDomain, incoming: z.boolean(), outgoing: z.boolean() });
/** PUT /api/configuration/anchors/{id}: an anchor added by hand. */
export const trustAnchorUpdate = withDirection(trustAnchorFields);
/** The text fields of POST /api/configuration/anchors (multipart; the certificate is the `file` part). */
export const trustAnchorUploadFields = withDirection(z.object({ name: trustName, domain: optionalDomain, incoming: formBoolean, outgoing: formBoolean }));

export const trustAnchorListItem = z.object({
  id: text(),
  name: text(),
  // null: every Direct domain hosted here.
  domain: text().nullable(),
  incoming: z.boolean(),
  outgoing: z.boolean(),
  subject: text(),
  // SHA-256 of the DER, upper-case hex.
  thumbprintSha256: text(),
  // ISO 8601, UTC.
  notAfter: text(),
  expired: z.boolean(),
  // The bundle the anchor came from; null when it was added by hand.
  bundleId: text().nullable(),
  bundleName: text().nullable(),
});
export type TrustAnchorListItem = z.infer<typeof trustAnchorListItem>;
export const trustAnchorPage = pageOf(trustAnchorListItem);

export const trustBundleFields = z.object({
  name: trustName,
  // null: the bundle was read from a file and is not refreshed.
  url: trustUrl.nullish().transform((v) => v ?? null),
  domain: optionalDomain,
  incoming: z.boolean(),
  outgoing: z.boolean(),
  refreshIntervalMinutes: refreshIntervalMinutes.default(REFRESH_INTERVAL_MINUTES.default),
});
/** PUT /api/configuration/bundles/{id}: a new URL is fetched at once. */
export const trustBundleUpdate = withDirection(trustBundleFields);
/** The text fields of POST /api/configuration/bundles (multipart): a url, or the bundle as the `file` part. */
export const trustBundleUploadFields = withDirection(
  z.object({
    name: trustName,
    url: trustUrl.optional().transform((v) => v ?? null),
    domain: optionalDomain,
    incoming: formBoolean,
    outgoing: formBoolean,
    refreshIntervalMinutes: refreshIntervalMinutes.default(REFRESH_INTERVAL_MINUTES.default),
  }),
);

export const trustBundle = z.object({
  id: text(),
  name: text(),
  url: text().nullable(),
  domain: text().nullable(),
  incoming: z.boolean(),
  outgoing: z.boolean(),
  refreshIntervalMinutes: z.number().int(),
  // SHA-256 of the bundle's bytes as last read, lower-case hex.
  checksum: text().nullable(),
  // When the bundle was last read (ISO 8601, UTC); a failed refresh leaves it and sets lastError.
  lastRefreshedAt: text().nullable(),
  lastError: text().nullable(),
  anchorCount: z.number().int(),
});
export type TrustBundle = z.infer<typeof trustBundle>;
export const trustBundlePage = pageOf(trustBundle);
